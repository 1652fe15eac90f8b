import type { Knex } from 'knex';

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
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS invites_by_created ON invites (tenant_id, created_at, id)');
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
}
