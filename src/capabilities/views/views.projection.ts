import type { Projector } from '../../projections/projector.js';
import type { MemberEvent } from '../members/index.js';
import type { ViewEvent } from './views.events.js';
import { tableSpec } from '../../projections/table-batch.js';

/** A member leaving the workspace (removed, then perhaps erased): their private views go with them. */
type MemberGone = Extract<MemberEvent, { type: 'member.removed' | 'member.erased' }>;

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

export const viewsProjector: Projector<ViewEvent | MemberGone> = {
  name: 'views',
  handles: ['view.created', 'view.updated', 'view.deleted', 'member.removed', 'member.erased'],
  tables: ['views'],
  project(events, writes) {
    const views = writes.table(VIEWS);
    for (const e of events) {
      switch (e.type) {
        case 'view.created': {
          const p = e.payload;
          views.insert({
            tenant_id: e.tenant_id,
            id: p.id,
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
          const { id, private: _private, order, member_id, ...rest } = e.payload;
          views.patch(
            { tenant_id: e.tenant_id, id },
            {
              ...rest,
              ...(order !== undefined ? { sort_order: order } : {}),
              ...(member_id !== undefined ? { owner_member_id: member_id } : {}),
              updated_at: e.created_at,
            },
          );
          break;
        }
        case 'view.deleted':
          views.delete({ tenant_id: e.tenant_id, id: e.payload.id });
          break;
        // A private view is its member's own filter: nobody else can see or use it, so it would only
        // linger, and an owner could not tell it was there. The views go here, in the projection, rather
        // than as view.deleted events: the removal is the fact, and a rebuild lands on the same rows. Their
        // workspace views stay (everyone's). member.erased again, for members removed before this existed.
        case 'member.removed':
        case 'member.erased':
          views.deleteWhere({ tenant_id: e.tenant_id, owner_member_id: e.payload.member_id, visibility: 'private' });
          break;
        default: {
          const never: never = e;
          throw new Error(`views projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
