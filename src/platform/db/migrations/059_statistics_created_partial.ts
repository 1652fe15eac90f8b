import type { Knex } from 'knex';

// The statistics' index by creation time holds only rows that have one, so only a
// statement that says `created_at IS NOT NULL` (the response-time report, which
// reads by it) can use it. A statement keyed by conversation ids (the projection's
// upsert, the answers' read) no longer can: for a workspace Postgres estimates at
// one row (outside the statistics' common values: new, or grown since the last
// ANALYZE) the planner took this index on the workspace alone, cheaper than one
// probe of the primary key per id, and read every row of the workspace to keep a
// few (auto_explain in the reply bench: 1,000–2,600 rows a group;
// test/projections/tenant-statistics.e2e.test.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS conversation_statistics_created;
    CREATE INDEX conversation_statistics_created ON conversation_statistics (tenant_id, created_at) WHERE created_at IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX IF EXISTS conversation_statistics_created;
    CREATE INDEX conversation_statistics_created ON conversation_statistics (tenant_id, created_at);
  `);
}
