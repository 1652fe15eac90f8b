// EventStoreDB adapter of the EventStore port (design guide, invariant 1).
// One stream per tenant (`tenant-<uuid>`), seq = stream revision + 1, appends
// with an expected revision so ESDB itself enforces gapless, commit-ordered seq.
// The stored event carries everything of the spec 2.4 envelope in its data, so
// nothing is rebuilt from ESDB's own fields except seq (revision) and position.
//
// What this adapter adds to the client, and why (docs/eventstoredb.md has the long form):
// - Idempotency per event id at any expected seq. ESDB recognises a retried
//   append only at the same expected revision (durably) or, with ANY, from a
//   best-effort cache; at the current revision it writes the same ids again.
//   So every append first looks its first id up in an id index kept beside the
//   read models (migration 030), completed from the stream where it lags, and
//   answers the stored events when it is there; 'any' appends at the head that
//   lookup read, never with ANY. readByIds is the same lookup, not a scan.
// - A deadline on every read: the client gives reads an infinite one. A read that
//   runs out is cancelled (the gRPC call, not just the Node stream), and so is
//   one that fails: a stream left paused would hold its call open on the server.
// - The server version (22.6 or newer) is checked from ServerFeatures before use.
// - Checkpoints are tagged `esdb:`; a Postgres store's checkpoint is refused.
// - A cluster that cannot take a call just now (its leader lost, an election, a
//   node gone) is reported as EventStoreUnavailable, which the service answers
//   503 with Retry-After like a database outage, never 500.
import {
  BACKWARDS,
  DeadlineExceededError,
  END,
  EventStoreDBClient,
  FORWARDS,
  MaxAppendSizeExceededError,
  NO_STREAM,
  NotLeaderError,
  START,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type CurrentRevision,
  type Position,
  type RecordedEvent,
  type ResolvedEvent,
  type StreamingRead,
} from '@eventstore/db-client';
import type { Knex } from 'knex';
import { AppError } from '../platform/errors.js';
import { canonicalReady, chainHash, ChainHeads, GENESIS, isChainHash } from '../platform/crypto/chain.js';
import type { EventMetadata, PendingEvent, StoredEvent } from './envelope.js';
import { eventLine, type EventLine } from './export-line.js';
import {
  ESDB_CHECKPOINT,
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

/** The stream name prefix of tenant streams in production. */
export const TENANT_PREFIX = 'tenant-';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RESUBSCRIBE_MS = 1000;
// readAll skips non-tenant records client-side (this client has no filtered
// $all read), so it reads in chunks of at least this many records.
const READ_ALL_MIN_CHUNK = 256;
/** Events read per request while the id index catches up with a stream. */
const INDEX_PAGE = 500;
/** An 'any' append is an append at the head it read; after this many lost races it gives up. */
const ANY_ROUNDS = 1000;
/** The oldest server this adapter runs against: stream reads report $all positions from 22.6 on. */
export const MIN_SERVER: readonly [number, number] = [22, 6];

export interface EventStoreDbOptions {
  /** Prefix of tenant stream names (`tenant-`); a contract run takes one of its own on a shared server. */
  streamPrefix?: string;
  /** Deadline of each read request (the client forces an infinite one on reads). */
  readTimeoutMs?: number;
  /** Deadline of the readiness probe: the version check and one read of $all. */
  pingTimeoutMs?: number;
  /** Deadline of an append (also bounds the client's capability fetch that precedes it). */
  appendTimeoutMs?: number;
  /** hash-chain the events (docs/audit.md); off only to measure what the chain costs (AUDIT_CHAIN) */
  chain?: boolean;
}

const DEFAULTS: Required<EventStoreDbOptions> = {
  streamPrefix: TENANT_PREFIX,
  readTimeoutMs: 10_000,
  pingTimeoutMs: 5_000,
  appendTimeoutMs: 10_000,
  chain: true,
};

/**
 * The cluster could not take a call just now: nothing is wrong with the call, and trying it again is safe (an
 * append that may have committed is found by its ids on the retry). The service answers it 503 with Retry-After
 * (src/platform/db/unavailable.ts knows it by its brand, not by class: that module may not import this one).
 */
export class EventStoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, Symbol.for('conversation-service/EventStoreUnavailable'), { value: true });
  }
}

/** A read or call to EventStoreDB that did not finish within its deadline (it was cancelled). */
export class EventStoreTimeout extends EventStoreUnavailable {
  constructor(what: string, ms: number) {
    super(`EventStoreDB: ${what} did not finish within ${ms} ms (cancelled)`);
  }
}

/**
 * The client's errors that say the cluster could not take a call just now, and nothing about the call (found
 * on a three-node cluster losing its leader: each of them had answered 500). The node went away or was not
 * reached (UNAVAILABLE: connection refused, reset or dropped); the call ran out of the server's or the
 * client's deadline; the node is no longer the leader (the client reconnects to the one it names); or, on the
 * batch-append path, the node is not ready or too busy (during an election), statuses this client does not
 * know and reports as UnknownError "Could not recognize Server Is Not Ready".
 */
export function isClusterUnavailable(e: unknown): boolean {
  return (
    e instanceof UnavailableError ||
    e instanceof DeadlineExceededError ||
    e instanceof TimeoutError ||
    e instanceof NotLeaderError ||
    (e instanceof UnknownError && /Server Is (?:Not Ready|Too Busy|Busy)/.test(e.message))
  );
}

/** `e` as EventStoreUnavailable when the cluster could not take the call, else as it is. */
function unavailableOr(e: unknown): unknown {
  if (e instanceof EventStoreUnavailable || !isClusterUnavailable(e)) return e;
  return new EventStoreUnavailable(`EventStoreDB cannot take the call just now: ${(e as Error).message}`, { cause: e });
}

/** The server is older than MIN_SERVER, or did not say its version (servers before 21.10 cannot). */
export class UnsupportedServer extends Error {
  constructor(readonly version: string) {
    super(
      `EventStoreDB server version "${version}" is not supported: ${MIN_SERVER.join('.')} or newer is needed ` +
        '(stream reads must report $all positions; older servers report none, or no version at all)',
    );
  }
}

/** Whether a ServerFeatures version string ("23.10.1.0", "24.10.0") is MIN_SERVER or newer. */
export function supportedServerVersion(version: string): boolean {
  const m = /^(\d+)\.(\d+)/.exec(version);
  if (!m) return false;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major > MIN_SERVER[0] || (major === MIN_SERVER[0] && minor >= MIN_SERVER[1]);
}

interface StoredData {
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  created_at: string;
  [key: string]: unknown;
}

const formatPosition = (p: Position): string => `esdb:${p.commit}:${p.prepare}`;

function parseCheckpoint(cp: string | null): Position | null {
  if (!cp) return null;
  const m = ESDB_CHECKPOINT.exec(cp);
  if (!m) {
    const by = checkpointStore(cp);
    if (by && by !== 'eventstoredb') throw new ForeignCheckpoint(cp, 'eventstoredb', by);
    throw new Error(`invalid EventStoreDB checkpoint "${cp}"`);
  }
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
}

const comparePositions = (a: Position, b: Position): number =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;

function toExpectedRevision(expected: number): AppendExpectedRevision {
  return expected === 0 ? NO_STREAM : BigInt(expected - 1);
}

const seqOf = (revision: CurrentRevision): number => (revision === NO_STREAM ? 0 : Math.max(0, Number(revision) + 1));

/** The server encodes "no position" as -1, which reaches the client as 2^64-1. */
const NO_POSITION = 1n << 63n;

function normalised(e: PendingEvent): PendingEvent {
  const created = new Date(e.created_at);
  // Postgres rejects a bad timestamp at append; fail as early here. Storing the
  // normalised ISO form makes created_at read back exactly as the Postgres store returns it.
  if (Number.isNaN(created.getTime())) throw new Error(`event ${e.id}: invalid created_at "${e.created_at}"`);
  return { ...e, created_at: created.toISOString() };
}

/** The event as ESDB stores it; its chain hash travels in the metadata (read back as StoredEvent.hash). */
function toEventData(e: PendingEvent, hash: string | null) {
  return jsonEvent({
    id: e.id,
    type: e.type,
    data: { aggregate_type: e.aggregate_type, aggregate_id: e.aggregate_id, payload: e.payload, created_at: e.created_at },
    metadata: hash === null ? e.metadata : { ...e.metadata, hash },
  });
}

/**
 * Reads a whole (bounded) read within `ms`. The client gives reads an infinite
 * deadline and its `for await` cannot be left safely: leaving destroys only the
 * Node stream, while the gRPC call goes on (held open by the server once the
 * client stops taking data) and counts against the connection's concurrent
 * streams. So nothing here leaves early: events are collected whole, and a read
 * that runs out of time or fails is cancelled, which ends the gRPC call.
 */
function collect<T>(read: StreamingRead<T>, ms: number, what: string): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const out: T[] = [];
    let settled = false;
    const abandon = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The Node stream stays flowing, so a call that did end drains and finishes.
      void read.cancel().catch(() => undefined);
      reject(err);
    };
    const timer = setTimeout(() => abandon(new EventStoreTimeout(what, ms)), ms);
    read.on('data', (r: T) => {
      if (!settled) out.push(r);
    });
    read.on('error', (e) => abandon(unavailableOr(e)));
    read.once('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(out);
    });
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new EventStoreTimeout(what, ms)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** kurrentdb:// is accepted by the config; this client (6.x) only parses esdb://. */
function normaliseUrl(url: string): string {
  return url.replace(/^kurrent(?:db)?(\+discover)?:\/\//i, (_m, discover: string | undefined) => `esdb${discover ?? ''}://`);
}

export function connectEventStoreDb(url: string, readModels: Knex, opts: EventStoreDbOptions = {}): EventStoreDbStore {
  const client = EventStoreDBClient.connectionString(normaliseUrl(url));
  // With throwOnAppendFailure=false the client answers a conflict as {success:false}
  // (and its batch path reports a wrong current revision): refuse it rather than mis-read conflicts.
  if ((client as unknown as { throwOnAppendFailure: boolean }).throwOnAppendFailure === false) {
    void client.dispose();
    throw new Error('EVENTSTORE_URL: throwOnAppendFailure=false is not supported (conflicts must raise WrongExpectedVersion); remove it');
  }
  return new EventStoreDbStore(client, readModels, opts);
}

// The id index (migration 030). One statement each: the watermark and the rows are read in one snapshot.
const LOOKUP = `SELECT h.indexed_seq::text AS indexed, i.id::text AS id, i.seq::text AS seq
  FROM (SELECT ?::uuid AS t) q
  LEFT JOIN esdb_event_id_heads h ON h.tenant_id = q.t
  LEFT JOIN esdb_event_ids i ON i.tenant_id = q.t AND i.id = ANY(?::uuid[])`;
// Rows for consecutive seqs after `from`; the watermark moves to `last` only when it already reached `from`.
const INDEX = `WITH r AS (
    INSERT INTO esdb_event_ids (tenant_id, id, seq)
    SELECT ?::uuid, x.id, x.seq FROM unnest(?::uuid[], ?::bigint[]) AS x(id, seq)
    ON CONFLICT (tenant_id, id) DO NOTHING
  )
  INSERT INTO esdb_event_id_heads AS h (tenant_id, indexed_seq)
  VALUES (?::uuid, CASE WHEN ?::bigint <= 0 THEN ?::bigint ELSE 0 END)
  ON CONFLICT (tenant_id) DO UPDATE
    SET indexed_seq = CASE WHEN h.indexed_seq >= ?::bigint THEN GREATEST(h.indexed_seq, ?::bigint) ELSE h.indexed_seq END`;

export class EventStoreDbStore implements EventStore {
  readonly kind = 'eventstoredb' as const;
  private readonly opts: Required<EventStoreDbOptions>;
  private verified = false;
  private checking: Promise<void> | null = null;
  /** chain heads this process appended (see ChainHeads); otherwise the previous event is read */
  private readonly heads = new ChainHeads();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly readModels: Knex,
    opts: EventStoreDbOptions = {},
  ) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  async withTenant<T>(tenantId: string, work: (s: TenantSession) => Promise<T>, readModels?: ReadModels): Promise<T> {
    // No lock to take: the expected revision is the concurrency check. The read models are folded after the
    // append (projected), so the answer read next reflects the write; catch-up covers a crash between the two.
    return work({
      db: this.readModels,
      inline: false,
      at: readModels ? await readModels.checkpoint(this.readModels, tenantId) : 0,
      append: (events, expected) => this.append(tenantId, events, expected),
      projected: async (events) => {
        if (readModels && events.length > 0) await readModels.project(tenantId, events);
      },
    });
  }

  async append(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    await this.ready();
    const stream = this.streamOf(tenantId);
    const pending = events.map(normalised);
    const ids = events.map((e) => e.id.toLowerCase());
    // Idempotent per id at any expected seq (the port's promise, kept by the Postgres store's
    // unique index): look the first id up before writing. ESDB itself would write the same ids
    // again at its current revision. Complete: the lookup reads the stream up to its end, and
    // the expected seq is a head that existed before it (the caller's, or the one read here).
    const found = await this.locate(tenantId, [ids[0]!]);
    if (found.seqs.size > 0) return this.readByIds(tenantId, ids);
    // 'any' is an append at the head just read, never ESDB's ANY (whose duplicate check is a cache).
    let expected = expectedSeq === 'any' ? found.head : expectedSeq;
    // The chain hash of the event the append follows: the expected revision makes it the stream's
    // head, so the hashes computed from it hold exactly when the append succeeds.
    let prev = await this.hashAt(stream, tenantId, expected);
    await canonicalReady;
    for (let round = 1; ; round++) {
      let last: bigint;
      const hashes = this.opts.chain ? this.hashes(tenantId, pending, expected, prev) : pending.map(() => null);
      const data = pending.map((e, i) => toEventData(e, hashes[i]!));
      try {
        const res = await withTimeout(
          this.client.appendToStream(stream, data, { expectedRevision: toExpectedRevision(expected), deadline: this.opts.appendTimeoutMs }),
          this.opts.appendTimeoutMs + 1000,
          `appending to ${stream}`,
        );
        // Only with throwOnAppendFailure=false (refused at connect); never read a failure as a write.
        if (!res.success) throw new WrongExpectedSeq(tenantId, expectedSeq, seqOf(res.nextExpectedRevision));
        last = res.nextExpectedRevision;
      } catch (e) {
        const conflict =
          e instanceof WrongExpectedVersionError
            ? new WrongExpectedSeq(tenantId, expectedSeq, seqOf(e.actualVersion))
            : e instanceof WrongExpectedSeq
              ? e
              : null;
        if (conflict) {
          if (expectedSeq !== 'any' || round >= ANY_ROUNDS || conflict.actual <= expected) throw conflict;
          // An 'any' append lost a race for the head. What landed after the head it read is all
          // that could hold these ids now: look there, then try at the new head.
          const landed = await this.readStreamRange(stream, BigInt(expected), conflict.actual - expected, true);
          if (landed.some((l) => l.id === ids[0])) return this.readByIds(tenantId, ids);
          const newHead = landed.at(-1);
          expected = newHead?.seq ?? conflict.actual;
          prev = newHead?.hash ?? (await this.hashAt(stream, tenantId, expected));
          // A pause that grows with the losses spreads contenders out (someone wins every round).
          await new Promise((r) => setTimeout(r, Math.random() * Math.min(round, 25)));
          continue;
        }
        if (e instanceof MaxAppendSizeExceededError) {
          throw new AppError(
            413,
            'payload_too_large',
            `The events of this request are larger than the event store takes in one append (${e.maxAppendSize} bytes).`,
          );
        }
        // Not written, or written and found by its ids when the request is tried again.
        throw unavailableOr(e);
      }
      const firstSeq = Number(last) - events.length + 2;
      // The index first: should the read-back below fail, a retry of the request still finds these events.
      await this.index(tenantId, ids, firstSeq).catch(() => undefined); // a later lookup fills in what this misses
      const stored = await this.readBack(stream, tenantId, ids, firstSeq);
      const tail = stored[stored.length - 1];
      if (tail?.hash) this.heads.committed(tenantId, tail.seq, tail.hash);
      return stored;
    }
  }

  /** The chain hashes of `events` at seqs after `expected`, following `prev`. */
  private hashes(tenantId: string, events: PendingEvent[], expected: number, prev: string): string[] {
    return events.map((e, i) => (prev = chainHash(prev, { ...e, tenant_id: tenantId, seq: expected + 1 + i })));
  }

  /** The chain hash of seq `seq` (GENESIS for 0): remembered, else read from the stream. */
  private async hashAt(stream: string, tenantId: string, seq: number): Promise<string> {
    if (!this.opts.chain) return GENESIS;
    const known = this.heads.at(tenantId, seq);
    if (known !== undefined) return known;
    const [event] = await this.readStreamRange(stream, BigInt(seq - 1), 1, true);
    // None: the stream is not at `seq`, and the append at that expected revision is refused anyway.
    // One without a hash (written with the chain off) chains from the genesis value; audit verify names it.
    return event?.hash ?? GENESIS;
  }

  async readTenant(tenantId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    if (limit <= 0) return [];
    await this.ready();
    // seq > afterSeq  <=>  revision >= afterSeq
    return this.readStreamRange(this.streamOf(tenantId), BigInt(Math.max(0, afterSeq)), limit);
  }
  async readTenantLines(tenantId: string, afterSeq: number, limit: number): Promise<EventLine[]> {
    return (await this.readTenant(tenantId, afterSeq, limit)).map((e) => ({ seq: e.seq, hash: e.hash ?? null, line: eventLine(e) }));
  }

  async readAggregate(tenantId: string, aggregateId: string, range: { afterSeq: number; toSeq?: number; limit: number }): Promise<StoredEvent[]> {
    // ESDB keeps no index by aggregate (one stream per workspace): the stream is read from afterSeq on, a
    // page at a time, up to toSeq or `limit` matches. A cost that grows with the workspace (docs/eventstoredb.md).
    const out: StoredEvent[] = [];
    for (let at = range.afterSeq; out.length < range.limit && (range.toSeq === undefined || at < range.toSeq);) {
      const page = await this.readTenant(tenantId, at, INDEX_PAGE);
      if (page.length === 0) break;
      for (const e of page) {
        if (range.toSeq !== undefined && e.seq > range.toSeq) return out;
        if (e.aggregate_id === aggregateId && out.push(e) >= range.limit) return out;
      }
      at = page[page.length - 1]!.seq;
    }
    return out;
  }

  async readByIds(tenantId: string, ids: readonly string[]): Promise<StoredEvent[]> {
    if (ids.length === 0) return [];
    await this.ready();
    const stream = this.streamOf(tenantId);
    const wanted = [...new Set(ids.map((i) => i.toLowerCase()))];
    const { seqs, tail } = await this.locate(tenantId, wanted);
    const bySeq = new Map(tail.map((e) => [e.seq, e]));
    const missing = [...new Set(seqs.values())].filter((s) => !bySeq.has(s)).sort((a, b) => a - b);
    // The indexed ones, read in runs of consecutive seqs (a command's events are one run).
    for (let i = 0; i < missing.length;) {
      let j = i + 1;
      while (j < missing.length && missing[j] === missing[j - 1]! + 1) j++;
      const run = await this.readStreamRange(stream, BigInt(missing[i]! - 1), j - i, true);
      for (const e of run) bySeq.set(e.seq, e);
      i = j;
    }
    for (const [id, seq] of seqs) {
      if (bySeq.get(seq)?.id !== id) {
        throw new Error(
          `tenant ${tenantId}: the event id index says ${id} is at seq ${seq}, the stream disagrees (was the stream deleted or the server replaced? see docs/eventstoredb.md)`,
        );
      }
    }
    return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  async head(tenantId: string): Promise<number> {
    await this.ready();
    const read = this.client.readStream(this.streamOf(tenantId), { direction: BACKWARDS, fromRevision: END, maxCount: 1, requiresLeader: true });
    try {
      const [last] = await collect(read, this.opts.readTimeoutMs, `reading the head of tenant ${tenantId}`);
      return last?.event ? Number(last.event.revision) + 1 : 0;
    } catch (e) {
      if (e instanceof StreamNotFoundError) return 0;
      throw e;
    }
  }

  async firstUnhashed(tenantId: string, afterSeq: number, toSeq: number): Promise<number | null> {
    // EventStoreDB has no index over its metadata: the range is read (an export on this store reads its log twice).
    // Its events are never changed in place, so a hashless one is one appended with AUDIT_CHAIN=off.
    for (let at = afterSeq; at < toSeq;) {
      const page = await this.readTenant(tenantId, at, Math.min(INDEX_PAGE, toSeq - at));
      if (page.length === 0) return null;
      const bare = page.find((e) => !e.hash);
      if (bare) return bare.seq;
      at = page[page.length - 1]!.seq;
    }
    return null;
  }

  async readAll(after: string | null, limit: number): Promise<ReadAllResult> {
    const from = parseCheckpoint(after);
    await this.ready();
    const events: StoredEvent[] = [];
    let last = from;
    // Keeps reading past system records until `limit` events or the end of $all:
    // callers treat an empty page as "caught up", so one must mean exactly that.
    while (events.length < limit) {
      // Reading $all is inclusive of its start position, so ask for one more and drop it.
      const want = Math.max(limit - events.length, READ_ALL_MIN_CHUNK) + (last ? 1 : 0);
      const page = await collect<AllStreamResolvedEvent>(
        this.client.readAll({ fromPosition: last ?? START, maxCount: want, direction: FORWARDS, resolveLinkTos: false }),
        this.opts.readTimeoutMs,
        'reading $all',
      );
      for (const r of page) {
        const rec = r.event;
        if (!rec || (last && comparePositions(rec.position, last) <= 0)) continue;
        if (this.isTenantEvent(rec)) {
          events.push(this.toStored(rec));
          last = rec.position;
          if (events.length >= limit) break;
        } else {
          last = rec.position; // examined: system events advance the checkpoint too
        }
      }
      if (page.length < want) break; // end of $all
    }
    return { events, checkpoint: last ? formatPosition(last) : after };
  }

  subscribe(opts: SubscribeOptions): Subscription {
    let from = parseCheckpoint(opts.after); // a bad or foreign checkpoint fails here, not in a retry loop
    const batchSize = Math.max(1, opts.batchSize ?? 500);
    const prefix = this.opts.streamPrefix;
    let stopped = false;
    let current: AllStreamSubscription | null = null;
    let wake: (() => void) | null = null;

    const closeSub = async (sub: AllStreamSubscription) => {
      // unsubscribe() cancels the gRPC call, which the client treats as a silent
      // end that never ends the readable; destroy() is what releases `for await`.
      await sub.unsubscribe().catch(() => undefined);
      sub.destroy();
    };

    const loop = (async () => {
      while (!stopped) {
        let sub: AllStreamSubscription | null = null;
        try {
          await this.ready();
          if (stopped) break;
          sub = this.client.subscribeToAll(
            { fromPosition: from ?? START, filter: streamNameFilter({ prefixes: [prefix] }), resolveLinkTos: false },
            { highWaterMark: batchSize },
          );
          current = sub;
          let batch: StoredEvent[] = [];
          for await (const r of sub) {
            if (stopped) break;
            if (r.event && this.isTenantEvent(r.event)) batch.push(this.toStored(r.event));
            // Batch whatever is already buffered (catch-up), hand over at once when live.
            if (batch.length > 0 && (batch.length >= batchSize || sub.readableLength === 0)) {
              const checkpoint = batch[batch.length - 1]!.position;
              await opts.handle(batch, checkpoint);
              from = parseCheckpoint(checkpoint);
              batch = [];
            }
          }
        } catch (e) {
          if (!stopped) opts.onError?.(e);
        } finally {
          current = null;
          if (sub) await closeSub(sub);
        }
        if (!stopped) {
          // Resubscribe from the last handled checkpoint after a pause (server restart, handler failure).
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, RESUBSCRIBE_MS);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
        }
      }
    })();

    return {
      async stop() {
        stopped = true;
        wake?.();
        if (current) await closeSub(current);
        await loop;
      },
    };
  }

  async countAll(): Promise<number | null> {
    return null; // $all holds no cheap count of tenant events
  }

  async ping(): Promise<void> {
    const until = Date.now() + this.opts.pingTimeoutMs;
    await withTimeout(this.ready(), this.opts.pingTimeoutMs, 'the server version check');
    // Reading one record proves the server answers reads (and that the credentials may read $all).
    await collect(this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }), Math.max(1, until - Date.now()), 'the readiness read of $all');
  }

  async close(): Promise<void> {
    // The read-model knex belongs to the composition root; the client is ours.
    await this.client.dispose();
  }

  /** A checkpoint at the current end of $all: what a reader that wants only later events starts from (the contract run's start). */
  async endCheckpoint(): Promise<string | null> {
    await this.ready();
    const [last] = await collect(
      this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }),
      this.opts.readTimeoutMs,
      'reading the end of $all',
    );
    return last?.event ? formatPosition(last.event.position) : null;
  }

  private streamOf(tenantId: string): string {
    // Postgres stores tenant ids as uuid (lower-case text); same here so both stores answer alike.
    const id = tenantId.toLowerCase();
    if (!UUID.test(id)) throw new Error(`invalid tenant id "${tenantId}" (expected a uuid)`);
    return this.opts.streamPrefix + id;
  }

  private isTenantEvent(rec: RecordedEvent): boolean {
    return rec.streamId.startsWith(this.opts.streamPrefix) && !rec.type.startsWith('$');
  }

  private toStored(rec: RecordedEvent): StoredEvent {
    const data = rec.data as StoredData;
    if (!rec.isJson || typeof data !== 'object' || data === null || typeof data.created_at !== 'string') {
      // Deliberately not skipped (docs/eventstoredb.md, "a foreign record"): skipping would open a gap in the tenant's seqs.
      throw new Error(
        `event ${rec.id} at revision ${rec.revision} of ${rec.streamId} is not a service event envelope; only the service may write to ${this.opts.streamPrefix}* streams`,
      );
    }
    if (!rec.position || rec.position.commit >= NO_POSITION || rec.position.prepare >= NO_POSITION) {
      throw new UnsupportedServer(`unknown (event ${rec.id} came without its $all position)`);
    }
    const raw = (rec.metadata && typeof rec.metadata === 'object' && !(rec.metadata instanceof Uint8Array) ? rec.metadata : {}) as Record<string, unknown>;
    // The chain hash travels in the metadata; readers get it as the stored event's `hash`, as from the Postgres store.
    const { hash, ...metadata } = raw;
    return {
      tenant_id: rec.streamId.slice(this.opts.streamPrefix.length),
      seq: Number(rec.revision) + 1,
      type: rec.type,
      aggregate_type: data.aggregate_type,
      aggregate_id: data.aggregate_id,
      payload: data.payload,
      // The time the shell gave the event, never ESDB's own `created`.
      created_at: data.created_at,
      id: rec.id,
      metadata: metadata as EventMetadata,
      position: formatPosition(rec.position),
      ...(isChainHash(hash) ? { hash } : {}),
    };
  }

  /** Checks the server version once (again after a failure): MIN_SERVER or newer. */
  private ready(): Promise<void> {
    if (this.verified) return Promise.resolve();
    this.checking ??= (async () => {
      try {
        // ServerFeatures.GetSupportedMethods, which the client fetches (without a deadline) before its first append.
        const features = await withTimeout(
          (this.client as unknown as { capabilities: Promise<{ serverVersion: string }> }).capabilities,
          this.opts.pingTimeoutMs,
          'fetching the server version',
        );
        if (!supportedServerVersion(features.serverVersion)) throw new UnsupportedServer(features.serverVersion);
        this.verified = true;
      } catch (e) {
        throw unavailableOr(e);
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  /**
   * Where ids are in the tenant's stream: the indexed ones from the index, the
   * rest from the stream itself, read (and indexed) from the index's watermark to
   * its end. Complete for every event committed before the call; `head` is the
   * stream's last seq as read.
   */
  private async locate(tenantId: string, ids: string[]): Promise<{ seqs: Map<string, number>; tail: StoredEvent[]; head: number }> {
    const stream = this.streamOf(tenantId);
    const res = await this.readModels.raw(LOOKUP, [tenantId, ids]);
    const rows = res.rows as { indexed: string | null; id: string | null; seq: string | null }[];
    const seqs = new Map<string, number>();
    for (const r of rows) if (r.id !== null) seqs.set(r.id, Number(r.seq));
    const wanted = new Set(ids);
    const tail: StoredEvent[] = [];
    let head = Number(rows[0]?.indexed ?? 0);
    for (;;) {
      const page = await this.readStreamRange(stream, BigInt(head), INDEX_PAGE, true);
      if (page.length === 0) break;
      await this.index(
        tenantId,
        page.map((e) => e.id),
        page[0]!.seq,
      );
      for (const e of page) {
        if (wanted.has(e.id) && !seqs.has(e.id)) {
          seqs.set(e.id, e.seq);
          tail.push(e);
        }
      }
      head = page[page.length - 1]!.seq;
      if (page.length < INDEX_PAGE) break;
    }
    return { seqs, tail, head };
  }

  /** Index rows for `ids` at consecutive seqs from `firstSeq`. */
  private async index(tenantId: string, ids: string[], firstSeq: number): Promise<void> {
    const seqs = ids.map((_, i) => firstSeq + i);
    const last = firstSeq + ids.length - 1;
    await this.readModels.raw(INDEX, [tenantId, ids, seqs, tenantId, firstSeq - 1, last, firstSeq - 1, last]);
  }

  /**
   * The appended events as stored (their $all positions are only known by
   * reading). Read from the leader, tried twice: the events are committed, so a
   * failure here is reported as such, and a retry of the request finds them.
   */
  private async readBack(stream: string, tenantId: string, ids: string[], firstSeq: number): Promise<StoredEvent[]> {
    let failure: unknown;
    for (let i = 0; i < 2; i++) {
      try {
        const stored = await this.readStreamRange(stream, BigInt(firstSeq - 1), ids.length, true);
        if (stored.length === ids.length && stored.every((s, k) => s.id === ids[k])) return stored;
        failure = new Error(`the stored events at seq ${firstSeq}.. do not match the appended ids`);
      } catch (e) {
        failure = e;
      }
    }
    throw new Error(
      `tenant ${tenantId}: the append committed seq ${firstSeq}..${firstSeq + ids.length - 1}, but reading it back failed: ${(failure as Error)?.message ?? failure}`,
      { cause: failure },
    );
  }

  private async readStreamRange(stream: string, fromRevision: bigint, maxCount: number, leader = false): Promise<StoredEvent[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const read = this.client.readStream(stream, { fromRevision, maxCount, direction: FORWARDS, resolveLinkTos: false, requiresLeader: leader });
        const got = await collect<ResolvedEvent>(read, this.opts.readTimeoutMs, `reading ${stream}`);
        return got.flatMap((r) => (r.event ? [this.toStored(r.event as RecordedEvent)] : []));
      } catch (e) {
        if (e instanceof StreamNotFoundError) return [];
        // Connected to a follower: the client reconnects to the leader it names; once more there.
        if (e instanceof EventStoreUnavailable && e.cause instanceof NotLeaderError && attempt === 1) continue;
        throw e;
      }
    }
  }
}
