// Every place the service reaches past the public API of knex, of tarn (knex's
// pool) or of pg, gathered in one module. Each is a measured gain (see
// docs/performance.md) that the public API does not offer: the tenant role set
// when a connection is taken (tenant-scope.ts), tenant affinity in the pool's
// queues, statements sent right behind BEGIN and as named prepared statements
// (postgres.store.ts, prepared.ts), and whole connections for a transaction of
// our own making. knex and pg are pinned to exact versions in package.json, and
// test/platform/driver-hooks.int.test.ts checks that each hook still takes effect
// against the installed versions: an upgrade that moves one of these internals
// fails there, not silently in production.
import type { Knex } from 'knex';

/** A pg connection as knex's pool hands it out. */
export interface RawConnection {
  query(...args: unknown[]): unknown;
}

/** knex's client: its own acquire and release of a pooled connection, and its pool (tarn). */
interface KnexClient<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(conn: C): Promise<unknown>;
  pool?: unknown;
}

const clientOf = <C>(db: Knex): KnexClient<C> => db.client as unknown as KnexClient<C>;

/** Takes a connection from the pool as knex's own queries do (for a transaction given `{ connection }`, a session lock). */
export function acquireRaw<C extends RawConnection>(db: Knex): Promise<C> {
  return clientOf<C>(db).acquireConnection();
}

/** Gives back a connection taken with acquireRaw. */
export async function releaseRaw(db: Knex, conn: RawConnection): Promise<void> {
  await clientOf(db).releaseConnection(conn);
}

/**
 * Wraps the pool's acquire and release: every query knex runs on `db`, and
 * every transaction, takes its connection through `acquire` and gives it back
 * through `release` (each is handed the original).
 */
export function aroundAcquire<C extends RawConnection>(
  db: Knex,
  hooks: { acquire(original: () => Promise<C>): Promise<C>; release(conn: C, original: (conn: C) => Promise<unknown>): Promise<unknown> },
): void {
  const client = clientOf<C>(db);
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  client.acquireConnection = () => hooks.acquire(acquire);
  client.releaseConnection = (conn) => hooks.release(conn, release);
}

/** tarn's queues: idle connections (the last one is taken next) and waiting acquires (the first is served next). */
export interface PoolQueues<C, W> {
  free?: { resource: C }[];
  pendingAcquires?: W[];
}

/** The pool's queues, as tarn keeps them (undefined before the pool exists). */
export function poolQueues<C, W>(db: Knex): PoolQueues<C, W> | undefined {
  return clientOf(db).pool as PoolQueues<C, W> | undefined;
}

/**
 * Replaces a pg connection's `query` (its own property, shadowing pg's method)
 * with what `wrap` makes of the original; returns the function that puts the
 * original back. What knex sends goes through it, BEGIN and COMMIT included.
 */
export function interceptQuery<C extends RawConnection>(conn: C, wrap: (original: C['query']) => C['query']): () => void {
  const own = Object.prototype.hasOwnProperty.call(conn, 'query');
  const original = conn.query;
  conn.query = wrap(original.bind(conn) as C['query']);
  return () => {
    if (own) conn.query = original;
    else delete (conn as Partial<RawConnection>).query;
  };
}

/**
 * knex marks a connection it was given for a transaction (`{ connection }`)
 * with the transaction's id and leaves the mark, since it does not release what
 * it did not acquire: the pool's next user would be reported under that id.
 */
export function clearTransactionMark(conn: RawConnection): void {
  delete (conn as { __knexTxId?: unknown }).__knexTxId;
}

/**
 * Calls `fn` with the SQLSTATE of every error the server sends on a pg
 * connection, a failed statement's included (pg's connection emits them as
 * `errorMessage` before the statement's caller hears of it).
 */
export function onServerError(conn: RawConnection, fn: (code: string) => void): void {
  const wire = (conn as { connection?: { on?(event: string, listener: (msg: { code?: unknown }) => void): unknown } }).connection;
  wire?.on?.('errorMessage', (msg) => {
    if (typeof msg?.code === 'string') fn(msg.code);
  });
}

/**
 * Marks a pooled connection to be dropped rather than reused, with the mark
 * knex itself puts on a connection that broke: the pool destroys it when it
 * would next hand it out, and opens another.
 */
export function discard(conn: RawConnection, reason: string): void {
  (conn as { __knex__disposed?: unknown }).__knex__disposed = reason;
}
