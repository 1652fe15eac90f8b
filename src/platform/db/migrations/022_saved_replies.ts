import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Saved replies (a read model of saved_reply.* events). At most 150 per
// workspace, and names unique ignoring case: both decided under the
// workspace's append lock by the decider. The name index is deliberately not
// unique: a rebuild folds a batch's inserts before its patches, so a reply
// renamed away from a name and a later reply taking that name would collide
// inside one batch although the log never held both at once.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE saved_replies (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX saved_replies_by_name ON saved_replies (tenant_id, lower(name));
  `);
  await tenantWall(knex, 'saved_replies');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS saved_replies');
}
