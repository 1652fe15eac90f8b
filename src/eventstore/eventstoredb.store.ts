// EventStoreDB adapter of the EventStore port (design guide, invariant 1).
// One stream per tenant (`tenant-<uuid>`), seq = stream revision + 1, appends
// with an expected revision so ESDB itself enforces gapless, commit-ordered seq.
// The stored event carries everything of the spec 2.4 envelope in its data, so
// nothing is rebuilt from ESDB's own fields except seq (revision) and position.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type CurrentRevision,
  type Position,
  type RecordedEvent,
} from '@eventstore/db-client';
import type { Knex } from 'knex';
import type { EventMetadata, PendingEvent, StoredEvent } from './envelope.js';
import {
  WrongExpectedSeq,
  type EventStore,
  type ExpectedSeq,
  type ReadAllResult,
  type SubscribeOptions,
  type Subscription,
  type TenantSession,
} from './store.port.js';

const PREFIX = 'tenant-';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RESUBSCRIBE_MS = 1000;
// readAll skips non-tenant records client-side (this client has no filtered
// $all read), so it reads in chunks of at least this many records.
const READ_ALL_MIN_CHUNK = 256;

interface StoredData {
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  created_at: string;
  [key: string]: unknown;
}

function streamOf(tenantId: string): string {
  // Postgres stores tenant ids as uuid (lower-case text); same here so both stores answer alike.
  const id = tenantId.toLowerCase();
  if (!UUID.test(id)) throw new Error(`invalid tenant id "${tenantId}" (expected a uuid)`);
  return PREFIX + id;
}

const formatPosition = (p: Position): string => `${p.commit}:${p.prepare}`;

function parseCheckpoint(cp: string | null): Position | null {
  if (!cp) return null;
  const m = /^(\d+):(\d+)$/.exec(cp);
  if (!m) throw new Error(`invalid EventStoreDB checkpoint "${cp}"`);
  return { commit: BigInt(m[1]!), prepare: BigInt(m[2]!) };
}

const comparePositions = (a: Position, b: Position): number =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;

function toExpectedRevision(expected: ExpectedSeq): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 0) return NO_STREAM;
  return BigInt(expected - 1);
}

const seqOf = (revision: CurrentRevision): number => (revision === NO_STREAM ? 0 : Math.max(0, Number(revision) + 1));

function toStored(rec: RecordedEvent): StoredEvent {
  const data = rec.data as StoredData;
  if (!rec.isJson || typeof data !== 'object' || data === null || typeof data.created_at !== 'string') {
    throw new Error(`event ${rec.id} in ${rec.streamId} is not a service event envelope`);
  }
  if (!rec.position) throw new Error(`EventStoreDB did not report the $all position of event ${rec.id} (server 22.6+ needed)`);
  const metadata = rec.metadata;
  return {
    tenant_id: rec.streamId.slice(PREFIX.length),
    seq: Number(rec.revision) + 1,
    type: rec.type,
    aggregate_type: data.aggregate_type,
    aggregate_id: data.aggregate_id,
    payload: data.payload,
    // The time the shell gave the event, never ESDB's own `created`.
    created_at: data.created_at,
    id: rec.id,
    metadata: (metadata && typeof metadata === 'object' && !(metadata instanceof Uint8Array) ? metadata : {}) as EventMetadata,
    position: formatPosition(rec.position),
  };
}

function toEventData(e: PendingEvent) {
  const created = new Date(e.created_at);
  // Postgres rejects a bad timestamp at append; fail as early here. Storing the
  // normalised ISO form makes created_at read back exactly as the Postgres store returns it.
  if (Number.isNaN(created.getTime())) throw new Error(`event ${e.id}: invalid created_at "${e.created_at}"`);
  return jsonEvent({
    id: e.id,
    type: e.type,
    data: { aggregate_type: e.aggregate_type, aggregate_id: e.aggregate_id, payload: e.payload, created_at: created.toISOString() },
    metadata: e.metadata,
  });
}

/** kurrentdb:// is accepted by the config; this client (6.x) only parses esdb://. */
function normaliseUrl(url: string): string {
  return url.replace(/^kurrent(?:db)?(\+discover)?:\/\//i, (_m, discover: string | undefined) => `esdb${discover ?? ''}://`);
}

export function connectEventStoreDb(url: string, readModels: Knex): EventStoreDbStore {
  return new EventStoreDbStore(EventStoreDBClient.connectionString(normaliseUrl(url)), readModels);
}

/** How far back readByIds looks (a resumed request comes within minutes of its first attempt). */
const READ_BY_IDS_SCAN = 50_000;

export class EventStoreDbStore implements EventStore {
  readonly kind = 'eventstoredb' as const;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly readModels: Knex,
  ) {}

  withTenant<T>(tenantId: string, work: (s: TenantSession) => Promise<T>): Promise<T> {
    // No lock to take: the expected revision is the concurrency check, and the
    // shell projects after the append (inline: false), catch-up covers a crash between.
    return work({ db: this.readModels, inline: false, append: (events, expected) => this.append(tenantId, events, expected) });
  }

  async append(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]> {
    if (events.length === 0) return [];
    const stream = streamOf(tenantId);
    let last: bigint;
    try {
      const res = await this.client.appendToStream(stream, events.map(toEventData), {
        expectedRevision: toExpectedRevision(expectedSeq),
      });
      last = res.nextExpectedRevision;
    } catch (e) {
      if (e instanceof WrongExpectedVersionError) throw new WrongExpectedSeq(tenantId, expectedSeq, seqOf(e.actualVersion));
      throw e;
    }
    // On an idempotent re-append ESDB writes nothing and answers with the revision
    // of the events it already holds, so reading the range back returns the stored
    // events (their first time, payload, position) rather than the retry's copies.
    // A fresh write is read back too: per-event $all positions are only known by reading.
    const first = last - BigInt(events.length - 1);
    const stored = await this.readStreamRange(stream, first, events.length);
    if (stored.length !== events.length || stored.some((s, i) => s.id !== events[i]!.id.toLowerCase())) {
      throw new Error(`tenant ${tenantId}: stored events at seq ${first + 1n}.. do not match the appended ids`);
    }
    return stored;
  }

  async readTenant(tenantId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    if (limit <= 0) return [];
    // seq > afterSeq  <=>  revision >= afterSeq
    return this.readStreamRange(streamOf(tenantId), BigInt(Math.max(0, afterSeq)), limit);
  }

  async readByIds(tenantId: string, ids: readonly string[]): Promise<StoredEvent[]> {
    // EventStoreDB has no index by event id. The events sought belong to one
    // recent command (a request resumed after its lease ran out), so walk the
    // stream backwards from its end, bounded, and stop after the contiguous run.
    const wanted = new Set(ids.map((i) => i.toLowerCase()));
    const found: StoredEvent[] = [];
    try {
      for await (const r of this.client.readStream(streamOf(tenantId), { direction: BACKWARDS, fromRevision: END, maxCount: READ_BY_IDS_SCAN })) {
        if (!r.event) continue;
        if (wanted.has(r.event.id.toLowerCase())) found.push(toStored(r.event));
        else if (found.length > 0) break;
      }
    } catch (e) {
      if (e instanceof StreamNotFoundError) return [];
      throw e;
    }
    return found.reverse();
  }

  async head(tenantId: string): Promise<number> {
    try {
      for await (const r of this.client.readStream(streamOf(tenantId), { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        if (r.event) return Number(r.event.revision) + 1;
      }
      return 0;
    } catch (e) {
      if (e instanceof StreamNotFoundError) return 0;
      throw e;
    }
  }

  async readAll(after: string | null, limit: number): Promise<ReadAllResult> {
    const from = parseCheckpoint(after);
    const events: StoredEvent[] = [];
    let last = from;
    // Keeps reading past system records until `limit` events or the end of $all:
    // callers treat an empty page as "caught up", so one must mean exactly that.
    while (events.length < limit) {
      // Reading $all is inclusive of its start position, so ask for one more and drop it.
      const want = Math.max(limit - events.length, READ_ALL_MIN_CHUNK) + (last ? 1 : 0);
      const page: AllStreamResolvedEvent[] = [];
      for await (const r of this.client.readAll({ fromPosition: last ?? START, maxCount: want, direction: FORWARDS, resolveLinkTos: false })) {
        page.push(r);
      }
      for (const r of page) {
        const rec = r.event;
        if (!rec || (last && comparePositions(rec.position, last) <= 0)) continue;
        last = rec.position; // examined: system events advance the checkpoint too
        if (rec.streamId.startsWith(PREFIX) && !rec.type.startsWith('$')) {
          events.push(toStored(rec));
          if (events.length >= limit) break;
        }
      }
      if (page.length < want) break; // end of $all
    }
    return { events, checkpoint: last ? formatPosition(last) : after };
  }

  subscribe(opts: SubscribeOptions): Subscription {
    let from = parseCheckpoint(opts.after); // a bad checkpoint fails here, not in a retry loop
    const batchSize = Math.max(1, opts.batchSize ?? 500);
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
        const sub = this.client.subscribeToAll(
          { fromPosition: from ?? START, filter: streamNameFilter({ prefixes: [PREFIX] }), resolveLinkTos: false },
          { highWaterMark: batchSize },
        );
        current = sub;
        try {
          let batch: StoredEvent[] = [];
          for await (const r of sub) {
            if (stopped) break;
            if (r.event && r.event.streamId.startsWith(PREFIX) && !r.event.type.startsWith('$')) batch.push(toStored(r.event));
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
          await closeSub(sub);
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
    for await (const _ of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, deadline: 5000 })) {
      // reading one record proves the server answers reads
    }
  }

  async close(): Promise<void> {
    // The read-model knex belongs to the composition root; the client is ours.
    await this.client.dispose();
  }

  private async readStreamRange(stream: string, fromRevision: bigint, maxCount: number): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    try {
      for await (const r of this.client.readStream(stream, { fromRevision, maxCount, direction: FORWARDS, resolveLinkTos: false })) {
        if (r.event) out.push(toStored(r.event));
      }
    } catch (e) {
      if (e instanceof StreamNotFoundError) return [];
      throw e;
    }
    return out;
  }
}
