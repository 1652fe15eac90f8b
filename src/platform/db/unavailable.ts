// Which failures mean "the database is not there right now", as opposed to a
// bug. A request that meets one is answered 503 with Retry-After (never 500):
// nothing is wrong with the request, and a retry with the same Idempotency-Key
// is safe, whether or not the work committed (src/api/idempotency).
//
// Postgres says so with SQLSTATEs; the driver and Node say so with error codes
// and, for a connection cut mid-statement, only with a message. knex passes the
// driver's error on (its message prefixed with the SQL), AggregateError carries
// one per address tried, and `cause` may hold the original.

/** SQLSTATEs of a server that is going, gone, not yet there, or not the primary any more. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_ctl stop -m fast, pg_terminate_backend
  '57P02', // crash_shutdown: another backend crashed, everyone is thrown out
  '57P03', // cannot_connect_now: the database system is starting up / shutting down / in recovery
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: the node is a standby now (a failover behind HAProxy)
]);

/** Node's socket errors on the way to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED']);

/** pg's messages for a connection that broke under a query, or a client that broke before it. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection terminated due to connection timeout',
  'timeout expired',
];

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** True when `err` (or what it wraps) says the database could not be reached or went away. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 4) return false;
  const e = err as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return true;
  // The pool could not hand out a connection in time (knex's acquire timeout): the database is not keeping up.
  if (e.name === 'KnexTimeoutError') return true;
  // The EventStoreDB adapter says the cluster cannot take the call just now (a lost leader, an election). By its
  // brand: this module may not import the adapter, and the client's own errors are all named plain "Error".
  if ((err as Record<symbol, unknown>)[Symbol.for('conversation-service/EventStoreUnavailable')] === true) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (code === '' && DRIVER_MESSAGES.some((m) => message.includes(m))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true;
  return e.cause !== undefined && isDatabaseUnavailable(e.cause, depth + 1);
}
