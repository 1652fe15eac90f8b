import { pino, type Logger, type DestinationStream } from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export type { Logger };

// Secrets must never reach a log line; redaction is a second wall behind
// "never log request bodies or credentials".
const REDACT = ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-service-signature"]', '*.secret', '*.webhook_secret', '*.password'];

// Database errors carry the values of the statement that failed: Postgres puts
// them in `detail` (a unique violation names the key value), `where`, `hint`,
// `internalQuery` and, for data exceptions or a trigger's RAISE, in the message
// itself; knex prefixes the message with the SQL (with its bindings inlined for
// some statements). A logged database error keeps what locates the failure
// (SQLSTATE, routine, table/column/constraint names) and drops the rest.

/** SQLSTATE classes whose messages name only identifiers from our own SQL, never values. */
const SAFE_MESSAGE_CLASSES = new Set(['08', '40', '42', '53', '57']);
const DB_KEEP = ['code', 'severity', 'routine', 'schema', 'table', 'column', 'dataType', 'constraint', 'file', 'line'] as const;
/** Other properties worth keeping on any error (none of them holds request data). */
const KEEP = ['code', 'status', 'statusCode', 'errno', 'syscall', 'address', 'port'] as const;

type Obj = Record<string, unknown>;

const isErrorLike = (e: unknown): e is Error & Obj => typeof e === 'object' && e !== null && typeof (e as Obj).message === 'string';
const isDatabaseError = (e: Obj): boolean => typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && typeof e.severity === 'string';
const framesOf = (stack: unknown): string =>
  typeof stack === 'string'
    ? stack
        .split('\n')
        .filter((l) => /^\s+at /.test(l))
        .join('\n')
    : '';

/** The `err` serializer: the error's type, message and stack, and for database errors no values. */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!isErrorLike(err)) return err;
  const type = err.constructor?.name && err.constructor.name !== 'Object' ? err.constructor.name : err.name;
  const out: Obj = { type };
  if (isDatabaseError(err)) {
    const code = err.code as string;
    // knex's message is "<sql> - <postgres message>"; the Postgres message is kept only for safe classes.
    const pgMessage = err.message.slice(err.message.lastIndexOf(' - ') + (err.message.includes(' - ') ? 3 : 0));
    out.message = SAFE_MESSAGE_CLASSES.has(code.slice(0, 2)) ? `database error ${code}: ${pgMessage}` : `database error ${code}`;
    for (const k of DB_KEEP) if (err[k] !== undefined) out[k] = err[k];
    out.stack = `${type}: ${out.message}\n${framesOf(err.stack)}`;
  } else {
    out.message = err.message;
    out.stack = err.stack;
    for (const k of KEEP) if (err[k] !== undefined && typeof err[k] !== 'object') out[k] = err[k];
  }
  if (depth < 3) {
    if (err.cause !== undefined) out.cause = serializeError(err.cause, depth + 1);
    if (Array.isArray(err.errors)) out.errors = err.errors.slice(0, 10).map((e) => serializeError(e, depth + 1));
  }
  return out;
}

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT, censor: '[redacted]' }, base: undefined, serializers: { err: (e: unknown) => serializeError(e) } },
    destination,
  );
}
