import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// The security review (issue 35).
//
// Delivery records keep the receiver's status and how many bytes it answered,
// never what it answered: the first 200 bytes used to be kept in last_error and
// each attempt's error, readable with settings:read (viewers included), which
// turned a webhook aimed at an allowlisted internal host into a partial read of
// its error pages. The excerpts stored by earlier versions are cut off here,
// leaving "receiver answered <status>".
//
// Pending invites are listed (GET /api/members/invites), by creation.
//
// A channel can be disabled (its signed routes answer the empty 401, its replies
// are not sent) and deleted: `enabled` on the read model and on the
// dispatcher's own view of channels, which it moves with its checkpoint.
//
// The signatures of accepted inbound posts, remembered so that the same bytes are
// refused a second time, whatever the timestamp (which the signature does not
// cover): one row per (channel, signature), written in the transaction of the post
// it let in, kept until `expires_at`, unique across every process.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS invites_by_created ON invites (tenant_id, created_at, id)');
  await knex.raw(`
    ALTER TABLE channels ADD COLUMN IF NOT EXISTS enabled boolean NOT NULL DEFAULT true;
    ALTER TABLE dispatch_channels ADD COLUMN IF NOT EXISTS enabled boolean NOT NULL DEFAULT true;
    CREATE TABLE IF NOT EXISTS inbound_signatures (
      signature_hash text PRIMARY KEY,
      tenant_id uuid NOT NULL,
      channel_id uuid NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS inbound_signatures_by_expiry ON inbound_signatures (expires_at);
  `);
  await tenantWall(knex, 'inbound_signatures');
  await knex.raw(`
    UPDATE webhook_deliveries SET last_error = substring(last_error FROM '^receiver answered [0-9]+')
     WHERE last_error ~ '^receiver answered [0-9]+: ';
    UPDATE webhook_delivery_attempts SET error = substring(error FROM '^receiver answered [0-9]+')
     WHERE error ~ '^receiver answered [0-9]+: ';
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The excerpts are gone for good; nothing to restore.
  await knex.raw('DROP INDEX IF EXISTS invites_by_created');
  await knex.raw(`
    DROP TABLE IF EXISTS inbound_signatures;
    ALTER TABLE dispatch_channels DROP COLUMN IF EXISTS enabled;
    ALTER TABLE channels DROP COLUMN IF EXISTS enabled;
  `);
}
