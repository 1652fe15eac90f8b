import type { Projector } from '../../projections/projector.js';
import { TableBatch } from '../../projections/table-batch.js';

const CHANNELS = {
  table: 'channels',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    kind: 'text',
    name: 'text',
    source: 'text',
    default_team_id: 'text',
    webhook_url: 'text',
    secret_rotated_at: 'timestamptz',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const;

export const channelsProjector: Projector = {
  name: 'channels',
  handles: ['channel.created', 'channel.updated', 'channel.secret_rotated'],
  tables: ['channels'],
  project(events, writes) {
    const channels = new TableBatch(CHANNELS);
    for (const e of events) {
      const p = e.payload as Record<string, unknown> & { channel_id: string };
      const key = { tenant_id: e.tenant_id, id: p.channel_id };
      switch (e.type) {
        case 'channel.created':
          channels.insert({ ...key, kind: p.kind, name: p.name, source: p.source, default_team_id: p.default_team_id ?? null, webhook_url: null, secret_rotated_at: null, created_at: e.created_at, updated_at: e.created_at });
          break;
        case 'channel.updated':
          channels.patch(key, {
            ...(p.name !== undefined ? { name: p.name } : {}),
            ...(p.webhook_url !== undefined ? { webhook_url: p.webhook_url } : {}),
            updated_at: e.created_at,
          });
          break;
        case 'channel.secret_rotated':
          channels.patch(key, { secret_rotated_at: e.created_at, updated_at: e.created_at });
          break;
      }
    }
    writes.add(...channels.statements());
  },
};
