import type { Knex } from 'knex';

// Each reservation of an Idempotency-Key names its holder: a random token of the
// request that reserved (or took over) the key. Releasing and renewing a key
// name it too, so that a release retried after a database outage, or a renewal
// late behind a takeover, can only touch the reservation it was made for, never
// the next request's (src/api/idempotency/idempotency.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS holder uuid');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS holder');
}
