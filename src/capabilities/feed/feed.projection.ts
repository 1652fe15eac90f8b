import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';

export const FEED = tableSpec({
  table: 'feed_events',
  key: ['tenant_id', 'seq'],
  columns: {
    tenant_id: 'uuid',
    seq: 'bigint',
    id: 'uuid',
    type: 'text',
    aggregate_type: 'text',
    aggregate_id: 'text',
    payload: 'jsonb',
    created_at: 'timestamptz',
  },
} as const);

/** Every event's envelope, one statement per batch. Payloads stay sealed as in the log. */
export const feedProjector: Projector = {
  name: 'feed',
  handles: ['*'],
  tables: ['feed_events'],
  project(events, writes) {
    const feed = writes.table(FEED);
    for (const e of events) {
      feed.insert({
        tenant_id: e.tenant_id,
        seq: e.seq,
        id: e.id,
        type: e.type,
        aggregate_type: e.aggregate_type,
        aggregate_id: e.aggregate_id,
        payload: e.sealed_payload ?? e.payload,
        created_at: e.created_at,
      });
    }
  },
  // With the Postgres store the feed reads the log itself (feedTable); this copy is for EventStoreDB.
  copiesLog: true,
};
