import type { Knex } from 'knex';

// A contact's conversations are looked up by erasure (every conversation and
// part it makes unreadable) and by subject-access exports: without this index
// both scan the workspace's conversations.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS conversations_by_contact ON conversations (tenant_id, contact_id, created_at, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS conversations_by_contact');
}
