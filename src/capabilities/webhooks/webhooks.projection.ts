import type { Projector } from '../../projections/projector.js';

/** The endpoints read model behind GET /api/webhooks (the dispatcher keeps a view of its own). */
export const webhooksProjector: Projector = {
  name: 'webhook_endpoints',
  handles: ['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.deleted'],
  tables: ['webhook_endpoints'],
  async project(db, events) {
    for (const e of events) {
      const p = e.payload as { endpoint_id: string; url?: string; event_names?: string[]; description?: string; enabled?: boolean };
      const key = { tenant_id: e.tenant_id, id: p.endpoint_id };
      switch (e.type) {
        case 'webhook_endpoint.created':
          await db('webhook_endpoints')
            .insert({ ...key, url: p.url, event_names: p.event_names ?? [], description: p.description ?? '', enabled: p.enabled !== false, created_at: e.created_at, updated_at: e.created_at })
            .onConflict(['tenant_id', 'id'])
            .merge();
          break;
        case 'webhook_endpoint.updated': {
          const { endpoint_id: _id, ...changes } = p;
          await db('webhook_endpoints').where(key).update({ ...changes, updated_at: e.created_at });
          break;
        }
        case 'webhook_endpoint.deleted':
          await db('webhook_endpoints').where(key).del();
          break;
      }
    }
  },
};
