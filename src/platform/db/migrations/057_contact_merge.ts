import type { Knex } from 'knex';

// A contact merged into another (contact.merged) points at the survivor: it
// answers 410 with the survivor as its canonical link, and a message found by
// its identifiers (a bridge's external_id, an e-mail's address) is filed under
// the survivor. Its conversations, companies, tags and notes went over.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE contacts ADD COLUMN merged_into uuid;
    CREATE INDEX contacts_merged_into ON contacts (tenant_id, merged_into) WHERE merged_into IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS contacts_merged_into; ALTER TABLE contacts DROP COLUMN IF EXISTS merged_into');
}
