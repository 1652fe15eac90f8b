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
//   text: trigram GIN indexes when pg_trgm is available (it ships with
//   Postgres' contrib and the embedded Postgres); without it those
//   conditions still work, as filters of the tenant's rows.
// - views: the read model of view.* events. A private view belongs to its
//   member (owner_member_id); a workspace view to everyone.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE conversation_parts ADD COLUMN body_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, body)) STORED;
    CREATE INDEX conversation_parts_body_fts ON conversation_parts USING gin (body_tsv);
  `);
  const trgm = await knex.raw(`SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'`);
  if (trgm.rows.length > 0) {
    await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await knex.raw(`
      CREATE INDEX conversations_subject_trgm ON conversations USING gin (subject gin_trgm_ops);
      CREATE INDEX contacts_email_trgm ON contacts USING gin (email gin_trgm_ops);
      CREATE INDEX contacts_name_trgm ON contacts USING gin (name gin_trgm_ops);
    `);
  }
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
    DROP INDEX IF EXISTS conversations_subject_trgm;
    DROP INDEX IF EXISTS contacts_email_trgm;
    DROP INDEX IF EXISTS contacts_name_trgm;
    DROP INDEX IF EXISTS conversation_parts_body_fts;
    ALTER TABLE conversation_parts DROP COLUMN IF EXISTS body_tsv;
  `);
}
