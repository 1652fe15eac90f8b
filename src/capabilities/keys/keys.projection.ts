import type { Projector } from '../../projections/projector.js';
import type { KeyEvent } from './keys.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const API_KEYS = tableSpec({
  table: 'api_keys',
  key: ['tenant_id', 'id'],
  nullable: ['revoked_at', 'rotated_at'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    member_id: 'uuid',
    name: 'text',
    scopes: 'text[]',
    status: 'text',
    created_at: 'timestamptz',
    rotated_at: 'timestamptz',
    revoked_at: 'timestamptz',
  },
} as const);

export const keysProjector: Projector<KeyEvent> = {
  name: 'keys',
  handles: ['api_key.created', 'api_key.rotated', 'api_key.revoked'],
  tables: ['api_keys'],
  project(events, writes) {
    const keys = writes.table(API_KEYS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.key_id };
      switch (e.type) {
        case 'api_key.created':
          keys.insert({
            ...key,
            member_id: e.payload.member_id,
            name: e.payload.name,
            scopes: e.payload.scopes,
            status: 'active',
            created_at: e.created_at,
            rotated_at: null,
            revoked_at: null,
          });
          break;
        case 'api_key.rotated':
          keys.patch(key, { rotated_at: e.created_at });
          break;
        case 'api_key.revoked':
          keys.patch(key, { status: 'revoked', revoked_at: e.created_at });
          break;
        default: {
          const never: never = e;
          throw new Error(`keys projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
