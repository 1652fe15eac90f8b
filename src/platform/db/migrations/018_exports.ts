import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Subject-access exports (src/capabilities/exports/). Primary data, not a read
// model: a request is a row, a worker claims it with a lease (leased_until,
// lease_token; FOR UPDATE SKIP LOCKED), builds the contact's document and
// stores it here with its personal values sealed under their subjects' data
// keys (`file`), so an erasure or redaction later makes them unreadable in the
// stored file too. At most one queued or running export per contact (the
// partial unique index). A sweep deletes the file once `expires_at` passes.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE exports (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      contact_id uuid NOT NULL,
      status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'expired')),
      progress real NOT NULL DEFAULT 0,
      requested_by jsonb NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      -- a running export's lease; for a queued one, when it may be claimed again (after a failed attempt)
      leased_until timestamptz,
      lease_token uuid,
      file bytea,
      size bigint,
      error text,
      created_at timestamptz NOT NULL,
      started_at timestamptz,
      completed_at timestamptz,
      expires_at timestamptz,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX exports_one_active ON exports (tenant_id, contact_id) WHERE status IN ('queued', 'running');
    CREATE INDEX exports_by_contact ON exports (tenant_id, contact_id);
    CREATE INDEX exports_claimable ON exports (created_at) WHERE status IN ('queued', 'running');
    CREATE INDEX exports_expiring ON exports (expires_at) WHERE status = 'completed';
  `);
  await tenantWall(knex, 'exports');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS exports');
}
