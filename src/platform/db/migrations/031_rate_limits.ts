import type { Knex } from 'knex';

// API rate-limit windows (src/api/rate-limit/limiter.ts; owned by the
// rate-limits capability): one row per budget (`key:<api key id>`,
// `workspace:<id>`, `expensive:<id>`, `channel:<id>`) and fixed window, counting
// every unit any process was granted. Processes take blocks of a window's quota
// with one INSERT … ON CONFLICT DO UPDATE that never counts past `quota`.
//
// UNLOGGED: no WAL, so a take commits without waiting for a flush, and a Postgres
// crash empties the table (every budget starts its window afresh: at worst one
// window admits up to twice its quota once). Ids only, no personal data; rows of
// windows that ended are deleted by the rate-limits sweeper.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit_windows (
      key text NOT NULL,
      window_start timestamptz NOT NULL,
      window_end timestamptz NOT NULL,
      quota integer NOT NULL,
      used integer NOT NULL,
      granted integer NOT NULL,
      PRIMARY KEY (key, window_start)
    );
    CREATE INDEX IF NOT EXISTS rate_limit_windows_end ON rate_limit_windows (window_end);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS rate_limit_windows');
}
