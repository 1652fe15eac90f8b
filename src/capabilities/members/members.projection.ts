import type { Projector } from '../../projections/projector.js';
import type { MemberEvent } from './members.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const MEMBERS = tableSpec({
  table: 'members',
  key: ['tenant_id', 'id'],
  nullable: ['capacity', 'email', 'erased_at', 'invite_id', 'name'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    user_id: 'uuid',
    email: 'text',
    name: 'text',
    role: 'text',
    status: 'text',
    joined_at: 'timestamptz',
    updated_at: 'timestamptz',
    erased_at: 'timestamptz',
    invite_id: 'uuid',
    availability: 'text',
    capacity: 'integer',
  },
} as const);
export const INVITES = tableSpec({
  table: 'invites',
  key: ['tenant_id', 'id'],
  nullable: ['email'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    email: 'text',
    role: 'text',
    status: 'text',
    invited_by: 'uuid',
    created_at: 'timestamptz',
    expires_at: 'timestamptz',
  },
} as const);

export const membersProjector: Projector<MemberEvent> = {
  name: 'members',
  handles: [
    'member.joined',
    'member.role_changed',
    'member.removed',
    'member.invited',
    'member.erased',
    'member.invite_revoked',
    'member.availability_changed',
    'member.capacity_changed',
  ],
  tables: ['invites', 'members'],
  project(events, writes) {
    const invites = writes.table(INVITES);
    const members = writes.table(MEMBERS);
    for (const e of events) {
      switch (e.type) {
        case 'member.joined': {
          const p = e.payload;
          members.insert({
            tenant_id: e.tenant_id,
            id: p.member_id,
            user_id: p.user_id,
            email: p.email,
            name: p.name,
            role: p.role,
            status: 'active',
            joined_at: e.created_at,
            updated_at: e.created_at,
            invite_id: p.invite_id ?? null,
            // away until they say otherwise; no limit until an owner or admin sets one
            availability: 'away',
            capacity: null,
          });
          if (p.invite_id) invites.patch({ tenant_id: e.tenant_id, id: p.invite_id }, { status: 'accepted' });
          break;
        }
        case 'member.role_changed':
          members.patch({ tenant_id: e.tenant_id, id: e.payload.member_id }, { role: e.payload.to, updated_at: e.created_at });
          break;
        case 'member.removed':
          members.patch({ tenant_id: e.tenant_id, id: e.payload.member_id }, { status: 'removed', updated_at: e.created_at });
          break;
        case 'member.invited': {
          const p = e.payload;
          invites.insert({
            tenant_id: e.tenant_id,
            id: p.invite_id,
            email: p.email,
            role: p.role,
            status: 'pending',
            invited_by: p.invited_by,
            created_at: e.created_at,
            expires_at: p.expires_at,
          });
          break;
        }
        case 'member.invite_revoked':
          // Its data key went with it: the e-mail is forgotten here too (a rebuild reads it as null from the log).
          invites.patch({ tenant_id: e.tenant_id, id: e.payload.invite_id }, { status: 'revoked', email: null });
          break;
        case 'member.erased':
          members.patch({ tenant_id: e.tenant_id, id: e.payload.member_id }, { email: null, name: null, erased_at: e.created_at, updated_at: e.created_at });
          if (e.payload.invite_id) invites.patch({ tenant_id: e.tenant_id, id: e.payload.invite_id }, { email: null });
          break;
        case 'member.availability_changed':
          members.patch({ tenant_id: e.tenant_id, id: e.payload.member_id }, { availability: e.payload.to, updated_at: e.created_at });
          break;
        case 'member.capacity_changed':
          members.patch({ tenant_id: e.tenant_id, id: e.payload.member_id }, { capacity: e.payload.to, updated_at: e.created_at });
          break;
        default: {
          const never: never = e;
          throw new Error(`members projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
