import knexFactory, { type Knex } from 'knex';
import { userInfo } from 'node:os';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import { prepareHotStatements, StatementNames } from './prepared.js';
import { acquireRaw, discard, onServerError, releaseRaw } from './driver-hooks.js';
import { PRIMARY_PROBE_SQL, type ConnectionEvents } from './connection-watch.js';
import { isDatabaseUnavailable } from './unavailable.js';
import { separateLog, type Separation } from './log-privileges.js';

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
  /** told when a pooled connection opens, breaks, or finds itself on a standby (src/platform/db/connection-watch.ts) */
  events?: ConnectionEvents;
}

/**
 * A connection attempt that gets no answer fails after this instead of hanging
 * (a primary that vanished without closing anything): the request is answered
 * 503 and retried, never left waiting.
 */
const CONNECT_TIMEOUT_MS = 10_000;

export function createDb(url: string, pool: PoolOptions = {}): Knex {
  const names = pool.prepare === false ? null : new StatementNames();
  return knexFactory({
    client: 'pg',
    // Pipeline mode: statements issued together on one connection (a group commit's loads, see
    // src/commands/shell.ts) go out at once and Postgres runs them back to back, instead of each
    // waiting for the previous answer and a turn of the event loop. One at a time, nothing changes.
    connection: {
      connectionString: url,
      application_name: pool.applicationName ?? 'conversation-service',
      pipeline: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    } as Knex.PgConnectionConfig,
    pool: {
      min: pool.min ?? 0,
      max: pool.max ?? 20,
      // An idle-in-transaction session holding an xid stalls every subscription
      // (they wait below the oldest running transaction); never let one linger.
      afterCreate: (conn: pg.Client, done: (err: Error | null, conn: pg.Client) => void) => {
        if (names) prepareHotStatements(conn as unknown as { query(...args: unknown[]): unknown }, names);
        watchConnection(conn, pool.events);
        // A session opened on a read-only server (a standby, or a node not yet promoted) stays read-only for its
        // life: it never enters the pool, so once the primary is back no write can meet one (as a 25006 it is a
        // 503 and a wait, like any other moment without a primary). Asked in the same round trip as the setting.
        conn.query(
          "SELECT set_config('idle_in_transaction_session_timeout', '60s', false), current_setting('transaction_read_only') AS read_only",
          (err: Error | null, r?: { rows: { read_only: string }[] }) => {
            if (err) return done(err, conn);
            if (r?.rows[0]?.read_only !== 'on') return done(null, conn);
            pool.events?.notPrimary();
            conn.end().catch(() => undefined);
            done(Object.assign(new Error('the database is read-only (a standby, not the primary)'), { code: '25006' }), conn);
          },
        );
      },
    },
    migrations: { migrationSource: migrations, tableName: 'knex_migrations' },
    ...(pool.log ? { log: knexLog(pool.log) } : {}),
  });
}

/**
 * A pooled connection across a primary change. One that breaks is dropped by
 * knex itself (it marks it and the pool destroys it at the next acquire); we
 * only count it. One that is refused a write as read-only (25006) sits on a
 * standby: HAProxy handed it to a node a moment before its promotion finished,
 * or it outlived its primary. It is dropped too, so the next statement goes
 * through HAProxy to the primary instead of failing on this session again.
 */
function watchConnection(conn: pg.Client, events: ConnectionEvents | undefined): void {
  events?.opened('pool');
  conn.on('error', () => events?.lost('pool'));
  onServerError(conn, (code) => {
    if (code !== '25006') return;
    discard(conn, 'the server is read-only (a standby, not the primary)');
    events?.notPrimary();
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
/**
 * Brings the schema up to date. `serving`: the role the service connects as when it is not the one migrating (`db`
 * is then the owner's): afterwards, under the same lock, the owner gives it everything but the event log, and on
 * the log only SELECT and INSERT (src/platform/db/log-privileges.ts).
 */
export async function migrate(
  db: Knex,
  opts: { waitMs?: number; onWait?: (err: unknown) => void; serving?: string; onSeparated?: (s: Separation) => void } = {},
): Promise<void> {
  const conn = await connectWaiting(db, opts.waitMs ?? 0, opts.onWait);
  try {
    await conn.query("SELECT pg_advisory_lock(hashtextextended('conversation-service:migrations', 0))");
    try {
      const rows = await conn.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'knex_migrations_lock' AND schemaname = current_schema()");
      if (rows.rows[0]?.n === 1) {
        const lock = await conn.query('SELECT count(*)::int AS n FROM knex_migrations_lock');
        if (lock.rows[0]?.n !== 1) await db.migrate.forceFreeMigrationsLock();
      }
      await db.migrate.latest();
      if (opts.serving) opts.onSeparated?.(await separateLog(conn, opts.serving));
    } finally {
      await conn.query("SELECT pg_advisory_unlock(hashtextextended('conversation-service:migrations', 0))").catch(() => undefined);
    }
  } finally {
    await releaseRaw(db, conn);
  }
}

/**
 * A connection for the migrations. With `waitMs`, a database that is not
 * there (no primary yet: a failover under way, a restart) is waited for, with
 * a growing pause between attempts, for at most that long: a process started
 * during a failover comes up by itself when the new primary does, instead of
 * exiting and needing someone to start it again. Other errors fail at once.
 */
async function connectWaiting(db: Knex, waitMs: number, onWait?: (err: unknown) => void): Promise<PgConn> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const conn = await acquireRaw<PgConn>(db);
      try {
        // a standby accepts the connection but could not migrate: wait for the primary as for no database
        const r = await conn.query(PRIMARY_PROBE_SQL);
        if (r.rows[0]?.writable === true) return conn;
        discard(conn, 'the server is read-only (a standby, not the primary)');
        throw Object.assign(new Error('the database is read-only (a standby, not the primary)'), { code: '25006' });
      } catch (e) {
        await releaseRaw(db, conn);
        throw e;
      }
    } catch (e) {
      if (!isDatabaseUnavailable(e) || Date.now() >= deadline) throw e;
      onWait?.(e);
      await new Promise((r) => setTimeout(r, Math.min(2_000, 250 * 2 ** Math.min(attempt, 3), Math.max(0, deadline - Date.now()))));
    }
  }
}

/**
 * Creates the LOGIN role `user` with `password` on the server of `adminUrl` if missing (the embedded default's
 * serving role), and sets its password when it exists: the one in DATA_DIR is the truth.
 */
export async function ensureLoginRole(adminUrl: string, user: string, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const role = client.escapeIdentifier(user);
    const secret = client.escapeLiteral(password);
    const found = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [user]);
    if (found.rowCount === 0) {
      await client.query(`CREATE ROLE ${role} LOGIN PASSWORD ${secret}`).catch((e: { code?: string }) => {
        if (e.code !== '42710' && e.code !== '23505') throw e; // another process made it first
      });
    }
    await client.query(`ALTER ROLE ${role} LOGIN NOSUPERUSER NOCREATEROLE NOCREATEDB PASSWORD ${secret}`);
  } finally {
    await client.end();
  }
}

/** The user a connection string logs in as (libpq's default, the OS user, when it names none). */
export function userOf(url: string): string {
  const u = new URL(url);
  return decodeURIComponent(u.username) || new URLSearchParams(u.search).get('user') || process.env.PGUSER || userInfo().username;
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
