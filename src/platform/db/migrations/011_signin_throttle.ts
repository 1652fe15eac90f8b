import type { Knex } from 'knex';

// Token buckets for failed sign-ins (src/capabilities/access/throttle.ts), one
// row per bucket: `account:<sha256 of the normalised e-mail>` and
// `address:<sha256 of the client address>`. Kept in Postgres so every API
// process draws from the same buckets. A bucket's capacity and refill rate are
// stored with it so one statement can take from several buckets at once;
// `granted` says whether the last take got a token.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE signin_throttle (
      key text PRIMARY KEY,
      tokens double precision NOT NULL,
      capacity double precision NOT NULL,
      refill_per_second double precision NOT NULL,
      updated_at timestamptz NOT NULL,
      granted boolean NOT NULL
    );
    CREATE INDEX signin_throttle_updated ON signin_throttle (updated_at);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS signin_throttle');
}
