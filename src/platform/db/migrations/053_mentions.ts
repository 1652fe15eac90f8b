import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Mentions (a read model of conversation.mentioned events): a member's, newest
// first, for GET /api/me/mentions. Ids only: what was said is the note's, read
// (and erased) with its conversation.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE mentions (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      member_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      part_id uuid NOT NULL,
      mentioned_by_type text NOT NULL,
      mentioned_by_id text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX mentions_of_member ON mentions (tenant_id, member_id, created_at DESC, id DESC);
  `);
  await tenantWall(knex, 'mentions');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS mentions');
}
