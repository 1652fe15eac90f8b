import type { Projector } from '../../projections/projector.js';

/** One multi-row insert per batch: rebuilds stream through this projector fast. */
export const feedProjector: Projector = {
  name: 'feed',
  handles: ['*'],
  tables: ['feed_events'],
  async project(db, events) {
    for (let i = 0; i < events.length; i += 1000) {
      await db('feed_events')
        .insert(
          events.slice(i, i + 1000).map((e) => ({
            tenant_id: e.tenant_id,
            seq: e.seq,
            id: e.id,
            type: e.type,
            aggregate_type: e.aggregate_type,
            aggregate_id: e.aggregate_id,
            payload: JSON.stringify(e.payload),
            created_at: e.created_at,
          })),
        )
        .onConflict(['tenant_id', 'seq'])
        .ignore();
    }
  },
};
