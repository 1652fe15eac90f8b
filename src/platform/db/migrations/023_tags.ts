import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Tags: a catalog (read model of tag.* events) and the tags on conversations
// and contacts. A conversation's or contact's tags are a uuid[] column on its
// own row rather than a link table: the owner's projector keeps it (tagging
// is its own idempotent delta event), lists and search read it without a
// join, and a GIN index answers "has any of these tags" (&&) and "has all of
// these" (@>). Names are resolved from the catalog at read time, so a rename
// is one catalog event and no row of a conversation changes.
// The name index is not unique for the reason given in 022: a rebuild folds a
// batch's inserts before its patches; uniqueness ignoring case is decided
// under the workspace's append lock.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE tags (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX tags_by_name ON tags (tenant_id, lower(name));
    ALTER TABLE conversations ADD COLUMN tag_ids uuid[] NOT NULL DEFAULT '{}';
    ALTER TABLE contacts ADD COLUMN tag_ids uuid[] NOT NULL DEFAULT '{}';
    CREATE INDEX conversations_tags ON conversations USING gin (tag_ids);
    CREATE INDEX contacts_tags ON contacts USING gin (tag_ids);
  `);
  await tenantWall(knex, 'tags');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS conversations_tags;
    DROP INDEX IF EXISTS contacts_tags;
    ALTER TABLE conversations DROP COLUMN IF EXISTS tag_ids;
    ALTER TABLE contacts DROP COLUMN IF EXISTS tag_ids;
    DROP TABLE IF EXISTS tags;
  `);
}
