import type { Projector } from '../../projections/projector.js';
import type { WebhookEvent } from './webhooks.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const ENDPOINTS = tableSpec({
  table: 'webhook_endpoints',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    url: 'text',
    event_names: 'text[]',
    description: 'text',
    enabled: 'boolean',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

/** The endpoints read model behind GET /api/webhooks (the dispatcher keeps a view of its own). */
export const webhooksProjector: Projector<WebhookEvent> = {
  name: 'webhooks',
  handles: ['webhook_endpoint.created', 'webhook_endpoint.updated', 'webhook_endpoint.deleted'],
  tables: ['webhook_endpoints'],
  project(events, writes) {
    const endpoints = writes.table(ENDPOINTS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.endpoint_id };
      switch (e.type) {
        case 'webhook_endpoint.created': {
          const p = e.payload;
          endpoints.insert({
            ...key,
            url: p.url,
            event_names: p.event_names,
            description: p.description,
            enabled: p.enabled,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'webhook_endpoint.updated': {
          const { endpoint_id: _id, ...changes } = e.payload;
          endpoints.patch(key, { ...changes, updated_at: e.created_at });
          break;
        }
        case 'webhook_endpoint.deleted':
          endpoints.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`webhooks projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
