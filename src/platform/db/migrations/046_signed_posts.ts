import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// One door for signed posts (issue 45): a remembered signature also names what
// the post it came with filed (its conversation, its part), so the same bytes
// posted again are answered as the duplicate they are (202, nothing filed)
// without being filed again, on every signed route. And the tombstones of
// erased bridge threads (the conversations projector's, from contact.erased):
// keyed hashes only, by which a post to an erased thread files nothing.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE inbound_signatures ADD COLUMN IF NOT EXISTS conversation_id uuid, ADD COLUMN IF NOT EXISTS part_id uuid;
    CREATE TABLE conversation_thread_tombstones (
      tenant_id uuid NOT NULL,
      thread_key text NOT NULL,
      erased_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, thread_key)
    );
  `);
  await tenantWall(knex, 'conversation_thread_tombstones');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS conversation_thread_tombstones;
    ALTER TABLE inbound_signatures DROP COLUMN IF EXISTS conversation_id, DROP COLUMN IF EXISTS part_id;
  `);
}
