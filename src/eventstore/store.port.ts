// One port, two adapters (Postgres, EventStoreDB), one contract test suite.
import type { Db } from '../platform/db/database.js';
import type { PendingEvent, StoredEvent } from './envelope.js';
import type { EventLine } from './export-line.js';

/** `expectedSeq` is the tenant's head seq the caller decided on (0 = empty stream). */
export type ExpectedSeq = number | 'any';

/**
 * `instanceof` by a registered brand, not by class identity: the EventStoreDB
 * adapter is loaded by a dynamic import, and a loader that keeps two instances
 * of this module (tsx under mocha does: require for static imports, import for
 * dynamic ones) would otherwise make the shell miss the adapter's conflicts.
 */
function branded(name: string): (v: unknown) => boolean {
  const brand = Symbol.for(`conversation-service/${name}`);
  return (v) => typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[brand] === true;
}
const isWrongExpectedSeq = branded('WrongExpectedSeq');
const isForeignCheckpoint = branded('ForeignCheckpoint');

export class WrongExpectedSeq extends Error {
  static override [Symbol.hasInstance] = isWrongExpectedSeq;
  constructor(
    readonly tenantId: string,
    readonly expected: ExpectedSeq,
    readonly actual: number,
  ) {
    super(`tenant ${tenantId}: expected seq ${expected}, stream is at ${actual}`);
    Object.defineProperty(this, Symbol.for('conversation-service/WrongExpectedSeq'), { value: true });
  }
}

/**
 * A unit of work on one tenant. In the Postgres store it is one transaction
 * that holds the tenant's append lock from start to commit, so state loaded
 * through `db` is exactly the state at the seq the append will expect, and
 * projections applied through `db` commit atomically with the events
 * (`inline`). In the EventStoreDB store `db` is the read-model database
 * outside any transaction, and the read models are folded after the append
 * (`projected`); a crash between the two is the catch-up projector's.
 */
export interface TenantSession {
  readonly db: Db;
  /** whether the read models are written in the append's own transaction (then a read through `db` sent behind the append sees them) */
  readonly inline: boolean;
  /**
   * The read models' checkpoint when the unit of work began (0 without `readModels`): read on the lock, in the
   * round trip that took it, where the store takes one; read through `db` where it takes none.
   */
  readonly at: number;
  /**
   * Appends. `alongside` (inline stores only): statements run in the same
   * round trip as the append (the read-model writes of these very events).
   * Ids already stored: nothing is written and the stored events with these
   * ids come back (at their own seqs), as EventStore.append does.
   *
   * The statement order (inline stores): statements sent through `db` after
   * `append` was called, while its promise is pending, reach Postgres after
   * the append, even when preparing it takes round trips of its own (the head
   * of an `'any'` append, a chain hash another process committed). The
   * command writer relies on it: it sends the answers' reads of the events it
   * appends right behind the append, without waiting for it
   * (CommandWriter.writeDecided, src/commands/write.ts); the Postgres store
   * keeps it by holding the connection's other senders until the append is
   * sent (`holdOthers`, src/eventstore/postgres.store.ts). A store that cannot
   * keep it must not be inline.
   */
  append(events: PendingEvent[], expectedSeq: ExpectedSeq, alongside?: { sql: string; bindings: unknown[] }[]): Promise<StoredEvent[]>;
  /**
   * Makes the read models hold `events` (this unit of work's append, or an earlier attempt's commit it found),
   * so that what is read next through `db` reflects them: nothing to do where the append wrote them (inline);
   * elsewhere they are folded now, or the tenant caught up when the read models lag.
   */
  projected(events: StoredEvent[]): Promise<void>;
}

/**
 * The read models as a unit of work keeps them current (the projection engine, handed to withTenant by the
 * command shell): an inline store reads only the checkpoint query, on its lock; a store that projects after its
 * append uses the rest.
 */
export interface ReadModels {
  /** a scalar query with the tenant id as its only parameter ($1): the read models' checkpoint */
  readonly checkpointQuery: string;
  /** the read models' checkpoint, read through `db` (a store that takes no lock) */
  checkpoint(db: Db, tenantId: string): Promise<number>;
  /** folds events just appended, in a transaction of their own; catches the tenant up instead when the read models lag */
  project(tenantId: string, events: StoredEvent[]): Promise<void>;
}

/**
 * Checkpoints (readAll's and subscriptions') name the store that wrote them:
 * EventStoreDB's are `esdb:<commit>:<prepare>`; Postgres's keep their
 * `<xid8>:<position>` form, which is also what every checkpoint stored before
 * tags existed is (the EventStoreDB adapter had never run against a server).
 * A position of one store means nothing in the other.
 */
export const ESDB_CHECKPOINT = /^esdb:(\d+):(\d+)$/;
export const POSTGRES_CHECKPOINT = /^(\d+):(\d+)$/;

/** The store a checkpoint belongs to, by its shape; null when it is neither's. */
export function checkpointStore(cp: string): EventStore['kind'] | null {
  return ESDB_CHECKPOINT.test(cp) ? 'eventstoredb' : POSTGRES_CHECKPOINT.test(cp) ? 'postgres' : null;
}

/** A store was handed the other store's checkpoint (the service was switched between stores): it refuses to resume from it. */
export class ForeignCheckpoint extends Error {
  static override [Symbol.hasInstance] = isForeignCheckpoint;
  constructor(
    readonly checkpoint: string,
    readonly store: EventStore['kind'],
    readonly writtenBy: EventStore['kind'],
  ) {
    super(
      `checkpoint "${checkpoint}" was written by the ${writtenBy} event store; this is the ${store} store, where that position means nothing. ` +
        'Refusing to resume from it: delete the checkpoint row to read this store from its beginning (read models: rebuild them).',
    );
    Object.defineProperty(this, Symbol.for('conversation-service/ForeignCheckpoint'), { value: true });
  }
}

export interface ReadAllResult {
  events: StoredEvent[];
  /** opaque, pass back as `after` to continue */
  checkpoint: string | null;
}

export interface Subscription {
  stop(): Promise<void>;
  /**
   * Resolves after a read that began after the call has caught up (handled
   * everything then visible). Tests wait on it instead of sleeping before they
   * assert that something was NOT seen. Optional: the EventStoreDB adapter pushes.
   */
  settled?(): Promise<void>;
}

export interface SubscribeOptions {
  /** start after this checkpoint; null = from the beginning */
  after: string | null;
  batchSize?: number;
  /**
   * Handles a batch. The subscription moves past it only when this resolves;
   * handlers persist their own checkpoint (atomically with their effects).
   */
  handle(events: StoredEvent[], checkpoint: string): Promise<void>;
  onError?(err: unknown): void;
  /**
   * Events as stored: personal fields left sealed (see forgettable.ts), for a
   * reader that needs none of them (the webhook dispatcher routes on types,
   * ids and URLs, and sends the sealed form, opened only at send time).
   */
  sealed?: boolean;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  /**
   * Run `work` as a unit of work on the tenant (see TenantSession). `readModels`: what the session keeps current
   * beside the log, its checkpoint read right after the lock is granted, in the same round trip, where the store
   * takes one; without it the session's `at` is 0 and `projected` does nothing.
   */
  withTenant<T>(tenantId: string, work: (s: TenantSession) => Promise<T>, readModels?: ReadModels): Promise<T>;
  /**
   * Append outside a session. Idempotent per event id, at any expected seq and
   * with 'any': when the first event's id is already stored, nothing is written
   * and the stored events with these ids come back (at their own seqs).
   */
  append(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]>;
  /**
   * The tenant's events with seq > afterSeq, ascending, at most `limit`. `sealed`: as stored, personal
   * fields left sealed (see SubscribeOptions.sealed), for readers of the log as evidence (the hash chain).
   */
  readTenant(tenantId: string, afterSeq: number, limit: number, opts?: { sealed?: boolean }): Promise<StoredEvent[]>;
  /** readTenant's events as stored (sealed), each as its audit export line: the bytes of eventLine (export-line.ts). */
  readTenantLines(tenantId: string, afterSeq: number, limit: number): Promise<EventLine[]>;
  /**
   * One aggregate's own events (aggregate_id = `aggregateId`) with afterSeq < seq <= toSeq (no bound when
   * toSeq is absent), ascending, at most `limit`: a past state folded from them, an aggregate's history.
   */
  readAggregate(tenantId: string, aggregateId: string, range: { afterSeq: number; toSeq?: number; limit: number }): Promise<StoredEvent[]>;
  /**
   * The tenant's events with these ids, ascending by seq (a command's events
   * are contiguous). Used to find what a crashed attempt of a request committed.
   */
  readByIds(tenantId: string, ids: readonly string[]): Promise<StoredEvent[]>;
  /** The tenant's current head seq (0 when empty). */
  head(tenantId: string): Promise<number>;
  /**
   * The first seq in (afterSeq, toSeq] whose event carries no chain hash, or null: an audit export is refused
   * before its first byte when its range holds one (AUDIT_CHAIN=off, or a hash stripped in the database).
   */
  firstUnhashed(tenantId: string, afterSeq: number, toSeq: number): Promise<number | null>;
  /**
   * All tenants' events in subscription order, after a checkpoint. Never skips a
   * late commit. A checkpoint of the other store is refused (ForeignCheckpoint).
   */
  readAll(after: string | null, limit: number): Promise<ReadAllResult>;
  /** Catch up from `after`, then follow live appends. Throws at once (ForeignCheckpoint) for a checkpoint of the other store. */
  subscribe(opts: SubscribeOptions): Subscription;
  /** How many events the log holds across tenants, when cheap to know (progress bars); null otherwise. */
  countAll(): Promise<number | null>;
  ping(): Promise<void>;
  /**
   * Resolves once no wake-up this store sent (the Postgres store's NOTIFY after a commit) is still on its way.
   * Tests that count what a write sends Postgres open and close their window on it instead of sleeping. Optional:
   * EventStoreDB's appends wake nobody through Postgres.
   */
  quiet?(): Promise<void>;
  close(): Promise<void>;
}
