import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import { EVENT_COLUMNS, storedRow } from '../../eventstore/envelope.js';

/** The change feed's copy of the log (EventStoreDB): every column of the event but its metadata. */
const { metadata: _metadata, ...FEED_COLUMNS } = EVENT_COLUMNS;

export const FEED = tableSpec({ table: 'feed_events', key: ['tenant_id', 'seq'], columns: FEED_COLUMNS } as const);

/** Every event's envelope, one statement per batch. Payloads stay sealed as in the log. */
export const feedProjector: Projector = {
  name: 'feed',
  handles: ['*'],
  tables: ['feed_events'],
  project(events, writes) {
    const feed = writes.table(FEED);
    for (const e of events) feed.insert(storedRow(e, FEED.columns));
  },
  // With the Postgres store the feed reads the log itself (feedTable); this copy is for EventStoreDB.
  copiesLog: true,
};
