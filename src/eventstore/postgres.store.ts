import type { Knex } from 'knex';
import type { PendingEvent, StoredEvent } from './envelope.js';
import { eventLine, type EventLine } from './export-line.js';
import { compactJsonb } from './jsonb-text.js';
import type { PgNotifier } from './pg-notifier.js';
import { pollingSubscription } from './polling-subscription.js';
import { acquireRaw, clearTransactionMark, interceptQuery, releaseRaw } from '../platform/db/driver-hooks.js';
import { batched } from '../platform/db/batched.js';
import { canonicalReady, chainHash, ChainHeads, GENESIS } from '../platform/crypto/chain.js';
import {
  POSTGRES_CHECKPOINT,
  ForeignCheckpoint,
  WrongExpectedSeq,
  checkpointStore,
  type EventStore,
  type ExpectedSeq,
  type ReadAllResult,
  type SubscribeOptions,
  type Subscription,
  type ReadModels,
  type TenantSession,
} from './store.port.js';

interface EventRow {
  tenant_id: string;
  seq: number;
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: Date;
  tx_id: string;
  position: string | number;
  hash: string | null;
}

/** An event as readTenantLines reads it: payload, metadata and created_at as text. */
interface TextRow {
  tenant_id: string;
  seq: string | number;
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: string;
  metadata: string;
  created_at: string;
  hash: string | null;
}

const COLUMNS = 'tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, tx_id::text AS tx_id, position::text AS position, hash';

function fromRow(r: EventRow): StoredEvent {
  return {
    tenant_id: r.tenant_id,
    seq: Number(r.seq),
    type: r.type,
    aggregate_type: r.aggregate_type,
    aggregate_id: r.aggregate_id,
    payload: r.payload,
    created_at: r.created_at.toISOString(),
    id: r.id,
    metadata: r.metadata,
    position: `${r.tx_id}:${r.position}`,
    ...(r.hash !== null ? { hash: r.hash } : {}),
  };
}

/** What the bare append's statement answers of each event (APPEND_LINKED). */
interface LinkedRow {
  seq: string;
  hash: string | null;
  tx_id: string;
  position: string;
}

/** A chained event as es_append stored it (its columns as fromRow reads them back), from what was sent and the answer. */
function storedAs(tenantId: string, e: PendingEvent & { hash: string }, seq: number, row: LinkedRow): StoredEvent {
  return {
    tenant_id: tenantId,
    seq,
    type: e.type,
    aggregate_type: e.aggregate_type,
    aggregate_id: e.aggregate_id,
    payload: e.payload,
    created_at: new Date(e.created_at).toISOString(),
    id: e.id,
    // es_append stores a missing metadata as {}.
    metadata: e.metadata ?? {},
    position: `${row.tx_id}:${row.position}`,
    hash: e.hash,
  };
}

function parseCheckpoint(cp: string | null): [string, string] {
  if (!cp) return ['0', '0'];
  const m = POSTGRES_CHECKPOINT.exec(cp);
  if (!m) {
    const by = checkpointStore(cp);
    if (by && by !== 'postgres') throw new ForeignCheckpoint(cp, 'postgres', by);
    throw new Error(`invalid Postgres event store checkpoint "${cp}"`);
  }
  return [m[1]!, m[2]!];
}

/** The driver's connection under a knex pool or transaction: hot statements skip knex's query building. */
interface PgConnection {
  query(config: { text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

// Built once: the hot statements of a command's transaction.
const LOCK = 'SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))';
/** The lock, the caller's read under it and, unless it is the head `$3` this process remembers, that head's hash (migration 062). */
const LOCK_THEN_READ = 'SELECT read, hash FROM es_lock_then_read($1::uuid, $2, $3::bigint)';
const APPEND = `SELECT ${COLUMNS} FROM es_append($1::uuid, $2::bigint, $3::jsonb)`;
const HASH_AT = 'SELECT hash FROM events WHERE tenant_id = $1::uuid AND seq = $2::bigint';
/**
 * A bare append in one statement: es_append takes the lock and checks the head and its hash (migration 045). It
 * answers only what the caller does not hold already (issue 50): printing the events' payloads back as text and
 * parsing them again cost more than the rest of the append's work in the client, and a fifth of it in Postgres.
 */
const APPEND_LINKED = 'SELECT seq, hash, tx_id::text AS tx_id, position::text AS position FROM es_append($1::uuid, $2::bigint, $3::jsonb, $4::text)';
/** Wakes every process's subscriptions (pg-notifier.ts); sent after an append's commit, never in its transaction. */
const NOTIFY = 'SELECT pg_notify($1, $2)';
const NOTIFY_ALONE = NOTIFY.replace(/\$\d/g, '?');
/** The head and its hash, read outside any lock (committed rows: a link es_append checks again under its lock). */
const HEAD_AND_HASH = `SELECT h.last_seq, e.hash FROM event_heads h LEFT JOIN events e ON e.tenant_id = h.tenant_id AND e.seq = h.last_seq
  WHERE h.tenant_id = ?::uuid`;
/** The statements above with knex's placeholders, for a statement of its own on the pool. */
const APPEND_ALONE = APPEND.replace(/\$\d/g, '?');
const HASH_AT_ALONE = HASH_AT.replace(/\$\d/g, '?');
/** Tries of the one-statement append of 'any' before it takes the lock first (its head moved each time). */
const LINKED_TRIES = 2;
const HEAD = 'SELECT last_seq FROM event_heads WHERE tenant_id = $1::uuid';

/** knex's `?` placeholders as `$n` from `first` on (`\\?` is a literal `?`, as knex reads it). */
export function numberPlaceholders(sql: string, first: number): { text: string; next: number } {
  let n = first;
  const text = sql.replace(/\\\?|\?/g, (m) => (m === '?' ? `$${n++}` : '?'));
  return { text, next: n };
}

/** The append with statements alongside, as one statement of data-modifying CTEs; its text per shape, built once. */
const appendTexts = new Map<string, string>();
const MAX_APPEND_TEXTS = 500;

function appendText(alongside: { sql: string }[]): string {
  if (alongside.length === 0) return APPEND;
  const key = alongside.map((s) => s.sql).join('\u0000');
  let text = appendTexts.get(key);
  if (text === undefined) {
    let next = 4;
    const parts = alongside.map((s, i) => {
      const numbered = numberPlaceholders(s.sql, next);
      next = numbered.next;
      return `w${i} AS (${numbered.text})`;
    });
    // The append's rows come back from the first CTE.
    text = `WITH a AS (${APPEND}), ${parts.join(', ')} SELECT * FROM a ORDER BY seq`;
    if (appendTexts.size >= MAX_APPEND_TEXTS) appendTexts.clear();
    appendTexts.set(key, text);
  }
  return text;
}

async function appendIn(
  conn: PgConnection,
  tenantId: string,
  events: PendingEvent[],
  expectedSeq: ExpectedSeq,
  alongside: { sql: string; bindings: unknown[] }[] = [],
): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const values: unknown[] = [tenantId, expectedSeq === 'any' ? null : expectedSeq, JSON.stringify(events)];
  for (const s of alongside) for (const b of s.bindings) values.push(b);
  try {
    const res = await conn.query({ text: appendText(alongside), values });
    return (res.rows as EventRow[]).map(fromRow);
  } catch (e) {
    const err = e as { code?: string; detail?: string };
    if (err.code === 'ES409') throw new WrongExpectedSeq(tenantId, expectedSeq, Number(err.detail));
    throw e;
  }
}

async function headOn(conn: PgConnection, tenantId: string): Promise<number> {
  const res = await conn.query({ text: HEAD, values: [tenantId] });
  return Number((res.rows[0] as { last_seq: string } | undefined)?.last_seq ?? 0);
}

/**
 * Sends `statement` on `conn` as soon as knex has sent the transaction's BEGIN on it, without waiting
 * for BEGIN's answer. `promise` is its result once BEGIN went out (undefined before); `restore` puts the
 * connection's query back (done by the first BEGIN, or by the caller when none was sent).
 */
function pipelineBehindBegin(
  conn: PgConnection,
  statement: { text: string; values: unknown[] },
): { readonly promise: Promise<{ rows: unknown[] }> | undefined; restore(): void } {
  let promise: Promise<{ rows: unknown[] }> | undefined;
  const restore = interceptQuery(
    conn,
    (query) =>
      ((...args: unknown[]) => {
        const sent = (query as (...a: unknown[]) => unknown)(...args);
        if ((args[0] as { text?: unknown } | null)?.text === 'BEGIN;') {
          restore();
          promise = query(statement);
          promise.catch(() => undefined); // awaited by the transaction; only if BEGIN failed is it never awaited
        }
        return sent;
      }) as PgConnection['query'],
  );
  return {
    get promise() {
      return promise;
    },
    restore: () => {
      if (promise === undefined) restore();
    },
  };
}

/**
 * Holds every statement sent on `conn` by others (knex's, on the transaction)
 * until `release()`, then sends them in order; statements sent through the
 * returned `query` go at once. Sent before release, ours reach Postgres first.
 */
function holdOthers(conn: PgConnection): PgConnection & { release(): void } {
  const waiting: (() => void)[] = [];
  let original!: PgConnection['query'];
  const restore = interceptQuery(conn, (query) => {
    original = query;
    return ((...args: unknown[]) =>
      new Promise((resolve, reject) => {
        waiting.push(() => {
          try {
            resolve((query as (...a: unknown[]) => unknown)(...args) as never);
          } catch (e) {
            reject(e);
          }
        });
      })) as PgConnection['query'];
  });
  return {
    query: (config) => original(config),
    release: () => {
      restore();
      for (const send of waiting.splice(0)) send();
    },
  };
}

export const EVENTS_CHANNEL = 'es_events';

export interface PostgresStoreOptions {
  /** hash-chain the events (docs/audit.md); off only to measure what the chain costs (AUDIT_CHAIN, the bench) */
  chain?: boolean;
}

/** One caller's outcome in a batch of appends: its events, or its own error. */
type Settled = { stored: StoredEvent[] } | { error: unknown };

/** A workspace's chain head as a transaction left it (committed or not). */
interface Head {
  seq: number;
  hash: string;
}

export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres' as const;
  private notifying: Promise<void> | null = null;
  private notifyAgain = false;
  private readonly chain: boolean;
  /** chain heads this store saw committed: the hash an append follows, without reading it (see ChainHeads) */
  private readonly heads = new ChainHeads();

  constructor(
    private readonly db: Knex,
    private readonly notifier: PgNotifier | null,
    opts: PostgresStoreOptions = {},
  ) {
    this.chain = opts.chain ?? true;
  }

  /**
   * The events with their chain hashes, following the event at `after` (the
   * head the append expects, so the caller holds the workspace's lock): its hash
   * is the one this transaction appended last, or one a commit of this process
   * left, or the one read with the lock (`locked`: another process committed
   * the head), or else read now.
   */
  private async chained(
    conn: PgConnection,
    tenantId: string,
    events: PendingEvent[],
    after: number,
    last: Head | null,
    locked: Head | null,
  ): Promise<PendingEvent[]> {
    if (!this.chain) return events;
    await canonicalReady;
    let prev = (last?.seq === after ? last.hash : undefined) ?? this.heads.at(tenantId, after) ?? (locked?.seq === after ? locked.hash : undefined);
    if (prev === undefined) {
      const res = await conn.query({ text: HASH_AT, values: [tenantId, after] });
      // No row: the head is not `after`, and es_append refuses the append. A NULL (written with the chain
      // off) chains from the genesis value again; audit verify names that seq.
      prev = (res.rows[0] as { hash: string | null } | undefined)?.hash ?? GENESIS;
    }
    return events.map((e, i) => {
      const hash = chainHash(prev!, { ...e, tenant_id: tenantId, seq: after + 1 + i, created_at: new Date(e.created_at).toISOString() });
      prev = hash;
      return { ...e, hash };
    });
  }

  withTenant<T>(tenantId: string, work: (s: TenantSession) => Promise<T>, readModels?: ReadModels): Promise<T> {
    const readOnLock = readModels?.checkpointQuery;
    let appended = false;
    /** the wake-up went right behind the COMMIT, on its connection */
    let woke = false;
    let last: Head | null = null;
    const result = (async () => {
      const conn = await acquireRaw<PgConnection>(this.db);
      // Installed before the BEGIN's hook, so that each puts back what it found (interceptQuery).
      const unhook = interceptQuery(
        conn,
        (query) =>
          ((...args: unknown[]) => {
            const sent = (query as (...a: unknown[]) => unknown)(...args);
            // knex's own COMMIT text, as the BEGIN's below; statements-per-write counts the round trip this saves.
            if (appended && !woke && (args[0] as { text?: unknown } | null)?.text === 'COMMIT;') woke = this.notifyAppended({ query }) !== null;
            return sent;
          }) as PgConnection['query'],
      );
      // Taken before the transaction's first write; see migration 001 for why the order matters.
      // What the caller reads under the lock comes back in the same round trip, read after the
      // lock was granted (migration 015: a plain statement would read its pre-wait snapshot).
      // The head whose hash this process has (0: the genesis); taken once, since a commit of this process may move it meanwhile.
      const known = this.chain ? (this.heads.latest(tenantId)?.seq ?? 0) : null;
      const lock = readOnLock ? { text: LOCK_THEN_READ, values: [tenantId, readOnLock, known] } : { text: LOCK, values: [tenantId] };
      // Sent right behind knex's BEGIN without waiting for its answer (the pool is in pipeline mode):
      // both answers come back together, one wake-up of each side instead of two. Postgres runs them in
      // order; if BEGIN failed, the lock fails too, and knex's transaction ends on BEGIN's error.
      const locked = pipelineBehindBegin(conn, lock);
      try {
        return await this.db.transaction(
          async (trx) => {
            const res = await (locked.promise ?? conn.query(lock));
            const row = readOnLock ? (res.rows[0] as { read: string | null; hash: string | null } | undefined) : undefined;
            const read = row?.read ?? null;
            // The head read with the lock, with its hash, when this process did not know it (the function looked it up).
            const lockedHead: Head | null = read !== null && row?.hash != null ? { seq: Number(read), hash: row.hash } : null;
            return work({
              db: trx,
              inline: true,
              at: read === null ? 0 : Number(read),
              // The read models were written with the append, in this transaction.
              projected: () => Promise.resolve(),
              append: async (events, expected, alongside) => {
                if (events.length === 0) return [];
                // The statement order TenantSession.append promises (store.port.ts): what the transaction sends
                // while the append is prepared (the answers' reads of what it writes, sent right behind it:
                // CommandWriter.writeDecided) reaches Postgres after the append, also when preparing it takes a
                // round trip (the head, or a chain hash another process committed).
                const own = holdOthers(conn);
                let storing: Promise<StoredEvent[]>;
                try {
                  // Under the lock: 'any' is the head as it stands.
                  const after = expected === 'any' ? await headOn(own, tenantId) : expected;
                  storing = appendIn(own, tenantId, await this.chained(own, tenantId, events, after, last, lockedHead), after, alongside);
                } finally {
                  own.release();
                }
                const stored = await storing;
                appended ||= stored.length > 0;
                const tail = stored[stored.length - 1];
                if (tail?.hash) last = { seq: tail.seq, hash: tail.hash };
                return stored;
              },
            });
          },
          { connection: conn },
        );
      } finally {
        locked.restore();
        unhook();
        clearTransactionMark(conn);
        await releaseRaw(this.db, conn);
      }
    })();
    return result.then((r) => {
      // Committed: what it appended last is a head any later transaction may follow.
      if (last) this.heads.committed(tenantId, last.seq, last.hash);
      // A wake-up in flight when the COMMIT went out may have run before it: one more goes now.
      if (appended && !woke) void this.notifyAppended();
      return r;
    });
  }

  /**
   * One statement, as before the chain (issue 50): es_append takes the workspace's lock itself and commits with
   * the statement. Chained, the events are hashed after the head's hash as this store remembers it from its own
   * commits (or reads it, outside any lock) and es_append checks that link under its lock (migration 045). Only
   * when the head is not what was remembered ('any' raced by another writer, a link that does not hold) does it
   * append the locked way: a transaction that takes the lock, reads the head's hash under it and appends.
   */
  async append(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    if (expectedSeq !== 'any') return this.appendOne(tenantId, events, expectedSeq);
    const settled = await this.appendAny(tenantId, events);
    if ('error' in settled) throw settled.error;
    return settled.stored;
  }

  /**
   * Appends of 'any' to one workspace made while one is in flight wait for it and then go as one append, each
   * caller answered with its own events, in the order they were made (what running them one after another
   * gives). Sent side by side instead, each would hash after the same remembered head, and all but the first
   * would be refused (ES409) and then go the locked way, the lock held across round trips while the next ones
   * queue behind it: a bridge writing into one busy workspace from several requests at once. A batch that fails
   * (one caller's event refused, an event id already stored: a retry, answered by the probe only when it comes
   * first) is run again one append at a time, so a caller's outcome is the one it would have had alone.
   */
  private readonly appendAny = batched<PendingEvent[], Settled>((tenantId, appends) => this.appendTogether(tenantId, appends));

  private async appendTogether(tenantId: string, appends: PendingEvent[][]): Promise<Settled[]> {
    if (appends.length > 1) {
      const all = appends.flat();
      const stored = await this.appendOne(tenantId, all, 'any').catch(() => null);
      // A retry that came first is answered with its stored events and the others are not appended.
      if (stored?.length === all.length && stored.every((e, i) => e.id === all[i]!.id)) {
        let at = 0;
        return appends.map((events) => ({ stored: stored.slice(at, (at += events.length)) }));
      }
    }
    const out: Settled[] = [];
    for (const events of appends)
      out.push(
        await this.appendOne(tenantId, events, 'any').then(
          (stored) => ({ stored }),
          (error: unknown) => ({ error }),
        ),
      );
    return out;
  }

  private async appendOne(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]> {
    if (this.chain) {
      // appendLinked wakes the subscriptions itself, and the locked way does in withTenant.
      const stored = await this.appendLinked(tenantId, events, expectedSeq);
      return stored ?? this.withTenant(tenantId, (s) => s.append(events, expectedSeq));
    }
    const stored = await this.appendBare(tenantId, events, expectedSeq);
    if (stored.length > 0) void this.notifyAppended();
    return stored;
  }

  /** The chain off: es_append alone (it takes the lock; 'any' is the head as it stands then). */
  private async appendBare(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]> {
    try {
      const res = await this.db.raw(APPEND_ALONE, [tenantId, expectedSeq === 'any' ? null : expectedSeq, JSON.stringify(events)]);
      return (res.rows as EventRow[]).map(fromRow);
    } catch (e) {
      const err = e as { code?: string; detail?: string };
      if (err.code === 'ES409') throw new WrongExpectedSeq(tenantId, expectedSeq, Number(err.detail));
      throw e;
    }
  }

  /** The chained append in one statement; null when it has to be made the locked way. */
  private async appendLinked(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[] | null> {
    await canonicalReady;
    for (let tries = 0; tries < (expectedSeq === 'any' ? LINKED_TRIES : 1); tries++) {
      let head = expectedSeq === 'any' ? this.heads.latest(tenantId) : { seq: expectedSeq, hash: this.heads.at(tenantId, expectedSeq) };
      if (head?.hash === undefined) head = await this.readHead(tenantId, expectedSeq);
      const after = head.seq;
      let prev = head.hash!;
      const chained = events.map((e, i) => {
        prev = chainHash(prev, { ...e, tenant_id: tenantId, seq: after + 1 + i, created_at: new Date(e.created_at).toISOString() });
        return { ...e, hash: prev };
      });
      try {
        const rows = await this.sendLinked(tenantId, after, chained, head.hash!);
        // Ours as sent, at the seqs after the head and with the hashes made here: the hash covers every column but
        // the position, so an answer that matches them is these events as stored. Anything else is a retry
        // answered with the events stored earlier under these ids (at their own seqs): read those whole.
        if (rows.length !== chained.length || rows.some((r, i) => Number(r.seq) !== after + 1 + i || r.hash !== chained[i]!.hash))
          return await this.readByIds(
            tenantId,
            chained.map((e) => e.id),
          );
        const stored = chained.map((e, i) => storedAs(tenantId, e, after + 1 + i, rows[i]!));
        this.heads.committed(tenantId, after + chained.length, chained[chained.length - 1]!.hash!);
        return stored;
      } catch (e) {
        const err = e as { code?: string; detail?: string };
        if (err.code !== 'ES409' && err.code !== 'ES412') throw e;
        this.heads.forget(tenantId);
        // A head that is not the expected one is the caller's conflict, as on the locked path.
        if (err.code === 'ES409' && expectedSeq !== 'any') throw new WrongExpectedSeq(tenantId, expectedSeq, Number(err.detail));
      }
    }
    return null;
  }

  /**
   * es_append of the chained events on a connection of its own, straight on the driver (no query building: this is
   * the whole of a bare append). Unless a wake-up is in flight, the NOTIFY goes right behind it on the same
   * connection: Postgres runs it after the append's commit, and it needs no connection or round trip of its own.
   */
  private async sendLinked(tenantId: string, after: number, chained: PendingEvent[], prev: string): Promise<LinkedRow[]> {
    const conn = await acquireRaw<PgConnection>(this.db);
    const appending = conn.query({ text: APPEND_LINKED, values: [tenantId, after, JSON.stringify(chained), prev] });
    const waking = this.notifying ? null : this.notifyAppended(conn);
    // Back to the pool once both are answered (a failed append is its caller's error; the wake-up never fails).
    void Promise.allSettled([appending, waking]).then(() => releaseRaw(this.db, conn).catch(() => undefined));
    const rows = (await appending).rows as LinkedRow[];
    // A wake-up was in flight: it may have run before this commit, so one more goes after it (as after any commit).
    if (!waking && rows.length > 0) void this.notifyAppended();
    return rows;
  }

  /** The head to append after and the hash to follow, read without a lock (es_append checks both under its own). */
  private async readHead(tenantId: string, expectedSeq: ExpectedSeq): Promise<{ seq: number; hash: string }> {
    if (expectedSeq !== 'any') {
      const res = await this.db.raw(HASH_AT_ALONE, [tenantId, expectedSeq]);
      // No row: the head is not there, and es_append refuses the append. A NULL (chain off) follows the genesis value.
      return { seq: expectedSeq, hash: (res.rows[0] as { hash: string | null } | undefined)?.hash ?? GENESIS };
    }
    const res = await this.db.raw(HEAD_AND_HASH, [tenantId]);
    const row = res.rows[0] as { last_seq: number | string; hash: string | null } | undefined;
    return { seq: Number(row?.last_seq ?? 0), hash: row?.hash ?? GENESIS };
  }

  /**
   * Wakes subscribers (in every process) after a commit. Coalesced: at most one
   * NOTIFY in flight and one queued behind it, however many appends commit.
   * Sent outside the append transaction on purpose (see migration 001). `on`: a connection whose commit it
   * follows, to send it on (sendLinked, a COMMIT just sent); otherwise it takes one from the pool. Returns what it
   * sent, if it did (it never rejects).
   */
  private notifyAppended(on?: PgConnection): Promise<void> | null {
    if (this.notifying) {
      this.notifyAgain = true;
      return null;
    }
    const values = [EVENTS_CHANNEL, ''];
    this.notifying = (on ? on.query({ text: NOTIFY, values }) : this.db.raw(NOTIFY_ALONE, values))
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.notifying = null;
        if (this.notifyAgain) {
          this.notifyAgain = false;
          void this.notifyAppended();
        }
      });
    return this.notifying;
  }

  async readTenant(tenantId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    const res = await this.db.raw(`SELECT ${COLUMNS} FROM events WHERE tenant_id = ?::uuid AND seq > ? ORDER BY seq LIMIT ?`, [tenantId, afterSeq, limit]);
    return (res.rows as EventRow[]).map(fromRow);
  }

  async readTenantLines(tenantId: string, afterSeq: number, limit: number): Promise<EventLine[]> {
    // payload and metadata as their jsonb's text, made JSON.stringify's by dropping the separators' spaces
    // (jsonb-text.ts), and created_at as the driver's Date prints it (UTC, milliseconds, truncated as to_char's MS
    // truncates): no event parsed into objects and printed again. An event whose text cannot be had so (a key like
    // an index, a number stored as JavaScript would not print it) is parsed and printed as eventLine does. Every text
    // column goes through JSON.stringify (a hash written by someone else may hold a quote); the store contract
    // holds these bytes to eventLine's.
    const res = await this.db.raw(
      `SELECT tenant_id, seq, id, type, aggregate_type, aggregate_id, payload::text AS payload, metadata::text AS metadata,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at, hash
         FROM events WHERE tenant_id = ?::uuid AND seq > ? ORDER BY seq LIMIT ?`,
      [tenantId, afterSeq, limit],
    );
    return (res.rows as TextRow[]).map((r) => {
      const seq = Number(r.seq);
      const payload = compactJsonb(r.payload);
      const metadata = compactJsonb(r.metadata);
      const line =
        payload === null || metadata === null
          ? eventLine({
              ...r,
              seq,
              payload: JSON.parse(r.payload) as StoredEvent['payload'],
              metadata: JSON.parse(r.metadata) as StoredEvent['metadata'],
              hash: r.hash ?? undefined,
            })
          : `{"tenant_id":"${r.tenant_id}","seq":${seq},"id":"${r.id}","type":${JSON.stringify(r.type)},"aggregate_type":${JSON.stringify(r.aggregate_type)},` +
            `"aggregate_id":${JSON.stringify(r.aggregate_id)},"payload":${payload},"metadata":${metadata},"created_at":"${r.created_at}",` +
            `"hash":${JSON.stringify(r.hash)}}`;
      return { seq, hash: r.hash, line };
    });
  }

  async readAggregate(tenantId: string, aggregateId: string, range: { afterSeq: number; toSeq?: number; limit: number }): Promise<StoredEvent[]> {
    // events_by_aggregate (migration 036): the aggregate's events in seq order, without a scan of the workspace.
    const upTo = range.toSeq === undefined ? '' : 'AND seq <= ?';
    const res = await this.db.raw(`SELECT ${COLUMNS} FROM events WHERE tenant_id = ?::uuid AND aggregate_id = ? AND seq > ? ${upTo} ORDER BY seq LIMIT ?`, [
      tenantId,
      aggregateId,
      range.afterSeq,
      ...(range.toSeq === undefined ? [] : [range.toSeq]),
      range.limit,
    ]);
    return (res.rows as EventRow[]).map(fromRow);
  }

  async readByIds(tenantId: string, ids: readonly string[]): Promise<StoredEvent[]> {
    if (ids.length === 0) return [];
    const res = await this.db.raw(`SELECT ${COLUMNS} FROM events WHERE tenant_id = ?::uuid AND id = ANY(?::uuid[]) ORDER BY seq`, [tenantId, [...ids]]);
    return (res.rows as EventRow[]).map(fromRow);
  }

  async head(tenantId: string): Promise<number> {
    const row = await this.db('event_heads').where({ tenant_id: tenantId }).first('last_seq');
    return row ? Number(row.last_seq) : 0;
  }

  async firstUnhashed(tenantId: string, afterSeq: number, toSeq: number): Promise<number | null> {
    // events_unhashed (migration 050) holds only the events without a hash: none, normally, so this is one index probe.
    const res = await this.db.raw('SELECT min(seq) AS seq FROM events WHERE tenant_id = ?::uuid AND hash IS NULL AND seq > ? AND seq <= ?', [
      tenantId,
      afterSeq,
      toSeq,
    ]);
    const seq = (res.rows as { seq: number | null }[])[0]?.seq;
    return seq === null || seq === undefined ? null : Number(seq);
  }

  async readAll(after: string | null, limit: number): Promise<ReadAllResult> {
    const [tx, pos] = parseCheckpoint(after);
    const res = await this.db.raw(
      `SELECT ${COLUMNS} FROM events
        WHERE (tx_id, position) > (?::xid8, ?::bigint)
          AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY events.tx_id, events.position -- qualified: bare names would mean the ::text output columns
        LIMIT ?`,
      [tx, pos, limit],
    );
    const events = (res.rows as EventRow[]).map(fromRow);
    return { events, checkpoint: events.length ? events[events.length - 1]!.position : after };
  }

  subscribe(opts: SubscribeOptions): Subscription {
    parseCheckpoint(opts.after); // a checkpoint it cannot resume from fails here, not in the polling loop's retries
    return pollingSubscription(this, this.notifier, EVENTS_CHANNEL, opts);
  }

  async countAll(): Promise<number | null> {
    const row = await this.db('event_heads').sum<{ n: string | null }[]>({ n: 'last_seq' });
    return Number(row[0]?.n ?? 0);
  }

  async ping(): Promise<void> {
    await this.db.raw('SELECT 1 FROM event_heads LIMIT 1');
  }

  async quiet(): Promise<void> {
    // A wake-up that ends with another queued behind it (notifyAgain) hands over to it in its `finally`, before the
    // one awaited here resolves: so the loop sees the next one, never a gap between them.
    while (this.notifying) await this.notifying;
  }

  async close(): Promise<void> {
    // The knex pool and the notifier belong to the composition root; a notify still on its way goes first.
    this.notifyAgain = false;
    await this.notifying;
  }
}
