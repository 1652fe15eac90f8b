import type { Knex } from 'knex';

// A conversation's rating is csat's (issue 47, part 1): its answer reads it from
// conversation_ratings, which csat keeps (the latest rating, its remark cleared by
// the contact's erasure), as the `rating` field csat adds to every conversation
// answer. The copy on the conversation's row (migration 040) is no longer written.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversations DROP COLUMN IF EXISTS rating_remark, DROP COLUMN IF EXISTS rating');
}

// The columns come back empty: a rebuild of the read models would not fill them either (nothing writes them).
export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE conversations ADD COLUMN IF NOT EXISTS rating jsonb, ADD COLUMN IF NOT EXISTS rating_remark text');
}
