import type { Projector } from '../../projections/projector.js';
import type { TeamEvent } from '../teams/index.js';
import type { ChannelEvent } from './channels.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const CHANNELS = tableSpec({
  table: 'channels',
  key: ['tenant_id', 'id'],
  nullable: ['address', 'default_team_id', 'dkim_selector', 'secret_rotated_at', 'webhook_url'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    kind: 'text',
    name: 'text',
    source: 'text',
    default_team_id: 'text',
    webhook_url: 'text',
    enabled: 'boolean',
    address: 'text',
    dkim_selector: 'text',
    secret_rotated_at: 'timestamptz',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const channelsProjector: Projector<ChannelEvent | Extract<TeamEvent, { type: 'team.deleted' }>> = {
  name: 'channels',
  handles: ['channel.created', 'channel.updated', 'channel.secret_rotated', 'channel.deleted', 'team.deleted'],
  tables: ['channels'],
  project(events, writes) {
    const channels = writes.table(CHANNELS);
    for (const e of events) {
      if (e.type === 'team.deleted') {
        // A deleted team is no channel's default any more (the event names the channels).
        for (const id of e.payload.channel_ids) channels.patch({ tenant_id: e.tenant_id, id }, { default_team_id: null, updated_at: e.created_at });
        continue;
      }
      const key = { tenant_id: e.tenant_id, id: e.payload.channel_id };
      switch (e.type) {
        case 'channel.created': {
          const p = e.payload;
          channels.insert({
            ...key,
            kind: p.kind,
            name: p.name,
            source: p.source,
            default_team_id: p.default_team_id ?? null,
            webhook_url: null,
            enabled: true,
            address: p.address ?? null,
            dkim_selector: p.dkim_selector ?? null,
            secret_rotated_at: null,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'channel.updated': {
          const { channel_id: _id, ...changes } = e.payload;
          channels.patch(key, { ...changes, updated_at: e.created_at });
          break;
        }
        case 'channel.secret_rotated':
          channels.patch(key, { secret_rotated_at: e.created_at, updated_at: e.created_at });
          break;
        case 'channel.deleted':
          // The channel goes; its conversations (another read model) keep naming it.
          channels.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`channels projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
