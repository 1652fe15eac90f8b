import type { NewEvent, StoredEvent } from '../eventstore/envelope.js';
import type { Writes } from './table-batch.js';

/**
 * A projector turns events into rows of read-model tables it owns. It is
 * handed only the event types it registered, in seq order per tenant, inside
 * the transaction that also moves the checkpoint, so it never needs its own
 * idempotency guard. Batches let it write many rows per statement (rebuild).
 */
export interface Projector<E extends NewEvent = NewEvent> {
  /** the capability folder's name */
  readonly name: string;
  /** event types; `'*'` receives every event (the change feed) */
  readonly handles: readonly (E['type'] | '*')[];
  /** tables this projector owns; `rebuild` empties them (children before parents) */
  readonly tables: readonly string[];
  /**
   * Folds `events` into `writes`, synchronously and without I/O: the engine sends
   * every projector's writes and the checkpoint move as one statement. Having no
   * database handle here is what keeps pipelined batches (rebuild) in order:
   * batch N's statement is always issued before batch N+1's.
   */
  project(events: StoredEvent<E>[], writes: Writes): void;
  /**
   * Set by a read model that is a plain copy of the log (the change feed). When the
   * log is the Postgres store's `events` table in the same database, that table is
   * the read model: the engine does not run this projector, its tables stay empty,
   * and its readers read `events` (see feedTable in capabilities/feed).
   */
  readonly copiesLog?: true;
}
