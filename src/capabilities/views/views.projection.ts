import type { Projector } from '../../projections/projector.js';
import type { ViewEvent } from './views.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const VIEWS = tableSpec({
  table: 'views',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    query: 'jsonb',
    sort: 'text',
    sort_order: 'text',
    visibility: 'text',
    owner_member_id: 'uuid',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const viewsProjector: Projector<ViewEvent> = {
  name: 'views',
  handles: ['view.created', 'view.updated', 'view.deleted'],
  tables: ['views'],
  project(events, writes) {
    const views = writes.table(VIEWS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'view.created': {
          const p = e.payload;
          views.insert({
            ...key,
            name: p.name,
            query: p.query,
            sort: p.sort,
            sort_order: p.order,
            visibility: p.visibility,
            owner_member_id: p.member_id,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'view.updated': {
          const { id: _id, private: _private, order, member_id, ...rest } = e.payload;
          views.patch(key, {
            ...rest,
            ...(order !== undefined ? { sort_order: order } : {}),
            ...(member_id !== undefined ? { owner_member_id: member_id } : {}),
            updated_at: e.created_at,
          });
          break;
        }
        case 'view.deleted':
          views.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`views projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
