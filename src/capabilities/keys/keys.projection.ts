import type { Projector } from '../../projections/projector.js';

export const keysProjector: Projector = {
  name: 'api_keys',
  handles: ['api_key.created', 'api_key.rotated', 'api_key.revoked'],
  tables: ['api_keys'],
  async project(db, events) {
    for (const e of events) {
      const p = e.payload as { key_id: string; member_id: string; name?: string; scopes?: string[] };
      const key = { tenant_id: e.tenant_id, id: p.key_id };
      switch (e.type) {
        case 'api_key.created':
          await db('api_keys')
            .insert({ ...key, member_id: p.member_id, name: p.name, scopes: p.scopes, status: 'active', created_at: e.created_at })
            .onConflict(['tenant_id', 'id'])
            .merge();
          break;
        case 'api_key.rotated':
          await db('api_keys').where(key).update({ rotated_at: e.created_at });
          break;
        case 'api_key.revoked':
          await db('api_keys').where(key).update({ status: 'revoked', revoked_at: e.created_at });
          break;
      }
    }
  },
};
