import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import { prepareHotStatements, StatementNames } from './prepared.js';
import { acquireRaw, releaseRaw } from './driver-hooks.js';

// int8 columns hold seqs and counts far below 2^53; parse them as numbers.
// (`position` and xid8 are read as text explicitly where they matter.)
pg.types.setTypeParser(20, (v) => Number(v));

/** A handle to run queries on: the pool, or a transaction. */
export type Db = Knex | Knex.Transaction;

export interface PoolOptions {
  min?: number;
  max?: number;
  /** send the statements this pool repeats as named prepared statements (src/platform/db/prepared.ts); default on */
  prepare?: boolean;
  /** application_name of its connections (pg_stat_activity) */
  applicationName?: string;
  /**
   * Where knex's own messages go ("Acquire connection error" while the database
   * restarts): the service's structured log, instead of bare lines on the console.
   */
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export function createDb(url: string, pool: PoolOptions = {}): Knex {
  const names = pool.prepare === false ? null : new StatementNames();
  return knexFactory({
    client: 'pg',
    // Pipeline mode: statements issued together on one connection (a group commit's loads, see
    // src/commands/shell.ts) go out at once and Postgres runs them back to back, instead of each
    // waiting for the previous answer and a turn of the event loop. One at a time, nothing changes.
    connection: { connectionString: url, application_name: pool.applicationName ?? 'conversation-service', pipeline: true } as Knex.PgConnectionConfig,
    pool: {
      min: pool.min ?? 0,
      max: pool.max ?? 20,
      // An idle-in-transaction session holding an xid stalls every subscription
      // (they wait below the oldest running transaction); never let one linger.
      afterCreate: (conn: pg.Client, done: (err: Error | null, conn: pg.Client) => void) => {
        if (names) prepareHotStatements(conn as unknown as { query(...args: unknown[]): unknown }, names);
        conn.query("SET idle_in_transaction_session_timeout = '60s'", (err) => done(err ?? null, conn));
      },
    },
    migrations: { migrationSource: migrations, tableName: 'knex_migrations' },
    ...(pool.log ? { log: knexLog(pool.log) } : {}),
  });
}

function knexLog(log: NonNullable<PoolOptions['log']>): Knex.Config['log'] {
  const text = (m: unknown) => ({ driver: m instanceof Error ? m.message : String(m) });
  return {
    warn: (m: unknown) => log.warn(text(m), 'database driver warning'),
    error: (m: unknown) => log.error(text(m), 'database driver error'),
    deprecate: (method: string, alternative: string) => log.warn({ driver: `${method} is deprecated; use ${alternative}` }, 'database driver warning'),
    debug: (m: unknown) => log.debug(text(m), 'database driver debug'),
  };
}

interface PgConn {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * Runs migrations, one process at a time. Several processes may start at once
 * against one database (API processes and workers); knex creates its own
 * bookkeeping tables and lock row without any lock, so racing first starts
 * failed ("relation knex_migrations already exists", "Migration table is already
 * locked") and could leave two lock rows, which fails every later start. A
 * session advisory lock, held on one pooled connection, serialises them; a
 * process killed while holding it frees it with its connection. Under it no one
 * else migrates, so a lock table that is not exactly one row (a race of an
 * earlier version) is reset.
 */
export async function migrate(db: Knex): Promise<void> {
  const conn = await acquireRaw<PgConn>(db);
  try {
    await conn.query("SELECT pg_advisory_lock(hashtextextended('conversation-service:migrations', 0))");
    try {
      const rows = await conn.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'knex_migrations_lock' AND schemaname = current_schema()");
      if (rows.rows[0]?.n === 1) {
        const lock = await conn.query('SELECT count(*)::int AS n FROM knex_migrations_lock');
        if (lock.rows[0]?.n !== 1) await db.migrate.forceFreeMigrationsLock();
      }
      await db.migrate.latest();
    } finally {
      await conn.query("SELECT pg_advisory_unlock(hashtextextended('conversation-service:migrations', 0))").catch(() => undefined);
    }
  } finally {
    await releaseRaw(db, conn);
  }
}

/** Creates `name` on the server of `adminUrl` if missing. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } catch (e) {
    // Two processes racing to create it: the loser sees a duplicate, which is fine.
    if ((e as { code?: string }).code !== '42P04' && (e as { code?: string }).code !== '23505') throw e;
  } finally {
    await client.end();
  }
}
