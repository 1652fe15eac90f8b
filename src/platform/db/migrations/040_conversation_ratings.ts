import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// CSAT (issue 34, item 7): one rating per conversation, the latest (a second replaces
// the first), kept by the csat projector for the report. The assignee and team are those
// of the conversation when it was rated, so the report credits who handled it then. The
// conversation's own row carries the rating too (its answer shows it without a join),
// the remark in a column of its own so an erasure clears it alone. The remark is personal
// content, sealed in the log; both copies are cleared when the contact is erased.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE conversation_ratings (
      tenant_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      rating_id uuid NOT NULL,
      score smallint NOT NULL,
      remark text,
      contact_id uuid NOT NULL,
      assignee_id uuid,
      team_id text,
      rated_by_type text NOT NULL,
      rated_by_id text NOT NULL,
      rated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, conversation_id)
    );
    CREATE INDEX conversation_ratings_rated_at ON conversation_ratings (tenant_id, rated_at);
    ALTER TABLE conversations ADD COLUMN rating jsonb;
    ALTER TABLE conversations ADD COLUMN rating_remark text;
  `);
  await tenantWall(knex, 'conversation_ratings');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE conversations DROP COLUMN IF EXISTS rating_remark;
    ALTER TABLE conversations DROP COLUMN IF EXISTS rating;
    DROP TABLE IF EXISTS conversation_ratings;
  `);
}
