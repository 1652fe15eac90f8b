import type { Projector } from '../../projections/projector.js';
import { TableBatch } from '../../projections/table-batch.js';

const API_KEYS = {
  table: 'api_keys',
  key: ['tenant_id', 'id'],
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
} as const;

export const keysProjector: Projector = {
  name: 'api_keys',
  handles: ['api_key.created', 'api_key.rotated', 'api_key.revoked'],
  tables: ['api_keys'],
  project(events, writes) {
    const keys = new TableBatch(API_KEYS);
    for (const e of events) {
      const p = e.payload as { key_id: string; member_id: string; name?: string; scopes?: string[] };
      const key = { tenant_id: e.tenant_id, id: p.key_id };
      switch (e.type) {
        case 'api_key.created':
          keys.insert({ ...key, member_id: p.member_id, name: p.name, scopes: p.scopes, status: 'active', created_at: e.created_at, rotated_at: null, revoked_at: null });
          break;
        case 'api_key.rotated':
          keys.patch(key, { rotated_at: e.created_at });
          break;
        case 'api_key.revoked':
          keys.patch(key, { status: 'revoked', revoked_at: e.created_at });
          break;
      }
    }
    writes.add(...keys.statements());
  },
};
