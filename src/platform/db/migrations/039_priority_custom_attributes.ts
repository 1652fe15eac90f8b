import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Priority and typed custom attributes of conversations (issue 34, items 1 and 2).
// A conversation's priority and attribute values are columns of its own row, kept by
// the conversations projector (like tag_ids): lists, search and views read them
// without a join. The definitions are a catalog of their own (conversation_attributes).
// The name index is not unique for the reason given in 022: a rebuild folds a batch's
// inserts before its patches; a name's uniqueness is decided under the append lock.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE conversations ADD COLUMN priority text NOT NULL DEFAULT 'normal';
    ALTER TABLE conversations ADD COLUMN custom_attributes jsonb NOT NULL DEFAULT '{}';
    CREATE INDEX conversations_priority ON conversations (tenant_id, priority);
    CREATE TABLE conversation_attributes (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      data_type text NOT NULL,
      options text[],
      description text,
      archived boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX conversation_attributes_by_name ON conversation_attributes (tenant_id, name);
  `);
  await tenantWall(knex, 'conversation_attributes');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS conversation_attributes;
    DROP INDEX IF EXISTS conversations_priority;
    ALTER TABLE conversations DROP COLUMN IF EXISTS custom_attributes;
    ALTER TABLE conversations DROP COLUMN IF EXISTS priority;
  `);
}
