import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE idempotency_keys (
      tenant_id uuid NOT NULL,
      caller_id text NOT NULL,
      key text NOT NULL,
      fingerprint text NOT NULL,
      status text NOT NULL CHECK (status IN ('in_flight', 'completed')),
      locked_until timestamptz NOT NULL,
      response_status int,
      response_body text,
      response_headers jsonb,
      created_at timestamptz NOT NULL,
      completed_at timestamptz,
      PRIMARY KEY (tenant_id, caller_id, key)
    );
    CREATE INDEX idempotency_keys_sweep ON idempotency_keys (completed_at) WHERE status = 'completed';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS idempotency_keys');
}
