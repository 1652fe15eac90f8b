import type { Knex } from 'knex';

// The change feed (spec 6.3): every event's envelope, per tenant, by seq. A
// read model like any other: with EventStoreDB it is the only place the API
// reads events from, and `rebuild` recreates it from the log.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE feed_events (
      tenant_id uuid NOT NULL,
      seq bigint NOT NULL,
      id uuid NOT NULL,
      type text NOT NULL,
      aggregate_type text NOT NULL,
      aggregate_id text NOT NULL,
      payload jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, seq)
    );
    CREATE INDEX feed_events_by_type ON feed_events (tenant_id, type, seq);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS feed_events');
}
