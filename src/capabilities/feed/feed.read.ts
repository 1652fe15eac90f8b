import type { Db } from '../../commands/command.js';
import type { EventStore } from '../../eventstore/store.port.js';
import { FEED } from './feed.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/**
 * Where the change feed is read from. With the Postgres store the log is a table
 * in this database with the feed's columns, primary key (tenant_id, seq) and
 * type index, behind the same row-level security: the feed reads it, and no
 * copy is written. With EventStoreDB the feed projector keeps `feed_events`.
 */
export type FeedTable = 'events' | 'feed_events';
export const feedTable = (kind: EventStore['kind']): FeedTable => (kind === 'postgres' ? 'events' : 'feed_events');

/** The columns of an envelope, the same in both tables (never the log's metadata: actor, request and idempotency key). */
export const FEED_COLUMNS = Object.keys(FEED.columns);

/** A row of `feed_events` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type FeedRow = RowOf<typeof FEED> & {
  payload: Record<string, unknown>;
};

// Not typed from a schema: the feed's answer schema is built at start from the
// event catalogue, one envelope per event type (anyEventSchema), and a row's
// payload is whatever its event carried.
export const renderFeedEvent = (r: FeedRow) => ({
  id: r.id,
  tenant_id: r.tenant_id,
  seq: Number(r.seq),
  type: r.type,
  aggregate_type: r.aggregate_type,
  aggregate_id: r.aggregate_id,
  payload: r.payload,
  created_at: r.created_at.toISOString(),
});

/**
 * The envelopes of the events about these aggregates, in seq order, a page at
 * a time (those after `afterSeq`, at most `limit`). Payloads stay as the table
 * keeps them: personal fields sealed (open them with Forgettable.reveal).
 */
export async function eventsAbout(
  db: Db,
  table: FeedTable,
  tenantId: string,
  aggregateIds: readonly string[],
  afterSeq: number,
  limit: number,
): Promise<ReturnType<typeof renderFeedEvent>[]> {
  if (aggregateIds.length === 0) return [];
  const rows: FeedRow[] = await db(table)
    .select(FEED_COLUMNS)
    .where({ tenant_id: tenantId })
    .whereIn('aggregate_id', [...aggregateIds])
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit);
  return rows.map(renderFeedEvent);
}
