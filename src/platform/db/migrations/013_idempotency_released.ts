import type { Knex } from 'knex';

// A reservation whose request answered 5xx is kept as `released` instead of
// deleted (spec 3.2: "released; a retry runs the work again"). The work may
// have committed before the 5xx (the answer failed after the command), so the
// retry that takes a released key over looks for what it committed first.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_status_check;
    ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_status_check CHECK (status IN ('in_flight', 'completed', 'released'));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM idempotency_keys WHERE status = 'released';
    ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_status_check;
    ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_status_check CHECK (status IN ('in_flight', 'completed'));
  `);
}
