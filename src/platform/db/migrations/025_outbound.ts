import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Outbound collections (src/capabilities/outbound/): outbound_collections and
// outbound_recipients are read models of outbound.* and outbound_recipient.*
// events; a collection's recipients are frozen into outbound_recipients by the
// event that starts sending (one row per contact). outbound_claims is the
// worker's, beside the log: who works on which pending recipient, under a
// lease (leased_until, lease_token), and how many attempts it took. A claim is
// only about sharing work: a recipient's outcome is decided under the
// workspace's append lock, so a second claim of it decides nothing.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE outbound_collections (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      channel_id uuid NOT NULL,
      subject text,
      body text NOT NULL,
      audience jsonb NOT NULL,
      send_at timestamptz,
      state text NOT NULL,
      author jsonb,
      member_id uuid,
      audience_size integer NOT NULL DEFAULT 0,
      pending integer NOT NULL DEFAULT 0,
      sent integer NOT NULL DEFAULT 0,
      failed integer NOT NULL DEFAULT 0,
      skipped integer NOT NULL DEFAULT 0,
      cancelled integer NOT NULL DEFAULT 0,
      cancel_reason text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      scheduled_at timestamptz,
      sending_at timestamptz,
      sent_at timestamptz,
      cancelled_at timestamptz,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX outbound_collections_due ON outbound_collections (send_at) WHERE state = 'scheduled';
    CREATE INDEX outbound_collections_sending ON outbound_collections (tenant_id, id) WHERE state = 'sending';
    CREATE TABLE outbound_recipients (
      tenant_id uuid NOT NULL,
      collection_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      id uuid NOT NULL,
      position integer NOT NULL,
      status text NOT NULL,
      conversation_id uuid,
      error_code text,
      error_message text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, collection_id, contact_id)
    );
    CREATE TABLE outbound_claims (
      tenant_id uuid NOT NULL,
      collection_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      leased_until timestamptz NOT NULL,
      lease_token uuid NOT NULL,
      attempts integer NOT NULL DEFAULT 1,
      PRIMARY KEY (tenant_id, collection_id, contact_id)
    );
    CREATE UNIQUE INDEX outbound_recipients_id ON outbound_recipients (tenant_id, id);
    CREATE INDEX outbound_recipients_list ON outbound_recipients (tenant_id, collection_id, position);
    CREATE INDEX outbound_recipients_pending ON outbound_recipients (position) WHERE status = 'pending';
  `);
  await tenantWall(knex, 'outbound_collections');
  await tenantWall(knex, 'outbound_recipients');
  await tenantWall(knex, 'outbound_claims');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS outbound_claims; DROP TABLE IF EXISTS outbound_recipients; DROP TABLE IF EXISTS outbound_collections');
}
