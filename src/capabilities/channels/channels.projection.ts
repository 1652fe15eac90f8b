import type { Projector } from '../../projections/projector.js';

export const channelsProjector: Projector = {
  name: 'channels',
  handles: ['channel.created', 'channel.updated', 'channel.secret_rotated'],
  tables: ['channels'],
  async project(db, events) {
    for (const e of events) {
      const p = e.payload as Record<string, unknown> & { channel_id: string };
      const key = { tenant_id: e.tenant_id, id: p.channel_id };
      switch (e.type) {
        case 'channel.created':
          await db('channels')
            .insert({ ...key, kind: p.kind, name: p.name, source: p.source, default_team_id: p.default_team_id ?? null, created_at: e.created_at, updated_at: e.created_at })
            .onConflict(['tenant_id', 'id'])
            .merge();
          break;
        case 'channel.updated':
          await db('channels')
            .where(key)
            .update({
              ...(p.name !== undefined ? { name: p.name } : {}),
              ...(p.webhook_url !== undefined ? { webhook_url: p.webhook_url } : {}),
              updated_at: e.created_at,
            });
          break;
        case 'channel.secret_rotated':
          await db('channels').where(key).update({ secret_rotated_at: e.created_at, updated_at: e.created_at });
          break;
      }
    }
  },
};
