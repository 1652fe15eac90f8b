import type { Knex } from 'knex';

// Bookkeeping shared by every capability: projection and subscription
// checkpoints, and idempotency reservations (spec 2.9, 3.2).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE projection_checkpoints (
      tenant_id uuid PRIMARY KEY,
      last_seq bigint NOT NULL
    );
    CREATE TABLE subscription_checkpoints (
      name text PRIMARY KEY,
      position text NOT NULL
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS subscription_checkpoints; DROP TABLE IF EXISTS projection_checkpoints;');
}
