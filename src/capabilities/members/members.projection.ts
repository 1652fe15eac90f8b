import type { Projector } from '../../projections/projector.js';
import { TableBatch } from '../../projections/table-batch.js';

const MEMBERS = {
  table: 'members',
  key: ['tenant_id', 'id'],
  columns: { tenant_id: 'uuid', id: 'uuid', user_id: 'uuid', email: 'text', name: 'text', role: 'text', status: 'text', joined_at: 'timestamptz', updated_at: 'timestamptz' },
} as const;
const INVITES = {
  table: 'invites',
  key: ['tenant_id', 'id'],
  columns: { tenant_id: 'uuid', id: 'uuid', email: 'text', role: 'text', status: 'text', invited_by: 'uuid', created_at: 'timestamptz', expires_at: 'timestamptz' },
} as const;

export const membersProjector: Projector = {
  name: 'members',
  handles: ['member.joined', 'member.role_changed', 'member.removed', 'member.invited'],
  tables: ['invites', 'members'],
  project(events, writes) {
    const members = new TableBatch(MEMBERS);
    const invites = new TableBatch(INVITES);
    for (const e of events) {
      const p = e.payload as Record<string, string>;
      const key = { tenant_id: e.tenant_id, id: p.member_id };
      switch (e.type) {
        case 'member.joined':
          members.insert({ ...key, user_id: p.user_id, email: p.email, name: p.name, role: p.role, status: 'active', joined_at: e.created_at, updated_at: e.created_at });
          if (p.invite_id) invites.patch({ tenant_id: e.tenant_id, id: p.invite_id }, { status: 'accepted' });
          break;
        case 'member.role_changed':
          members.patch(key, { role: p.to, updated_at: e.created_at });
          break;
        case 'member.removed':
          members.patch(key, { status: 'removed', updated_at: e.created_at });
          break;
        case 'member.invited':
          invites.insert({ tenant_id: e.tenant_id, id: p.invite_id, email: p.email, role: p.role, status: 'pending', invited_by: p.invited_by, created_at: e.created_at, expires_at: p.expires_at });
          break;
      }
    }
    writes.add(...invites.statements());
    writes.add(...members.statements());
  },
};
