import type { Knex } from 'knex';

// The change feed reads the log itself when the log is the Postgres store in
// this database (src/capabilities/feed/feed.read.ts, feedTable): feed_events was
// a second copy of every event, a row, a primary-key entry and a type-index
// entry written beside each one. The events table already has the feed's
// primary key (tenant_id, seq); this gives it the index of the `types` filter.
// feed_events stays: it is the feed's read model when the log is EventStoreDB.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS events_by_type ON events (tenant_id, type, seq)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS events_by_type');
}
