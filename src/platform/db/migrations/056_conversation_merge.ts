import type { Knex } from 'knex';

// A merged conversation (conversation.merged) points at the one it was merged
// into: it is closed and read-only, and a later message on its thread (a
// bridge's post, an e-mail answering its messages) is filed in the target.
// Conversations merged into it follow it there (the pointer is always one hop).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE conversations ADD COLUMN merged_into uuid;
    CREATE INDEX conversations_merged_into ON conversations (tenant_id, merged_into) WHERE merged_into IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS conversations_merged_into; ALTER TABLE conversations DROP COLUMN IF EXISTS merged_into');
}
