import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Search (the filter language of POST /api/conversations/search and
// /api/contacts/search) and custom views.
//
// - Part bodies: their full-text vector as a stored generated column
//   (body_tsv, 'simple' configuration) with a GIN index, so `body ~` is an
//   index lookup, and where a row is checked the vector is read, not parsed
//   again. It follows the body: a redacted, unsent or erased part's body is
//   null, so is its vector (no words of it stay behind), and nothing matches.
// - Contains / starts / ends with (ILIKE with escaped wildcards) on short
//   text get no index: behind row-level security Postgres uses no index whose
//   operator is not leakproof (a trigram index's ILIKE is not), so such an
//   index would cost every write and serve no search. Those conditions filter
//   the workspace's rows, reached through its (tenant_id, …) indexes. The
//   full-text index is read by a probe on the owner pool (see
//   conversations.search.ts).
// - views: the read model of view.* events. A private view belongs to its
//   member (owner_member_id); a workspace view to everyone.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE conversation_parts ADD COLUMN body_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, body)) STORED;
    CREATE INDEX conversation_parts_body_fts ON conversation_parts USING gin (body_tsv);
  `);
  await knex.raw(`
    CREATE TABLE views (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      query jsonb NOT NULL,
      sort text NOT NULL,
      sort_order text NOT NULL,
      visibility text NOT NULL,
      owner_member_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX views_by_owner ON views (tenant_id, visibility, owner_member_id);
  `);
  await tenantWall(knex, 'views');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS views;
    DROP INDEX IF EXISTS conversation_parts_body_fts;
    ALTER TABLE conversation_parts DROP COLUMN IF EXISTS body_tsv;
  `);
}
