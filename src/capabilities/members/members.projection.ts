import type { Projector } from '../../projections/projector.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import type { Knex } from 'knex';

async function applyOne(db: Knex.Transaction, e: StoredEvent): Promise<void> {
  const p = e.payload as Record<string, string>;
  const key = { tenant_id: e.tenant_id, id: p.member_id };
  switch (e.type) {
    case 'member.joined':
      await db('members')
        .insert({ ...key, user_id: p.user_id, email: p.email, name: p.name, role: p.role, status: 'active', joined_at: e.created_at, updated_at: e.created_at })
        .onConflict(['tenant_id', 'id'])
        .merge();
      if (p.invite_id) await db('invites').where({ tenant_id: e.tenant_id, id: p.invite_id }).update({ status: 'accepted' });
      return;
    case 'member.role_changed':
      await db('members').where(key).update({ role: p.to, updated_at: e.created_at });
      return;
    case 'member.removed':
      await db('members').where(key).update({ status: 'removed', updated_at: e.created_at });
      return;
    case 'member.invited':
      await db('invites')
        .insert({ tenant_id: e.tenant_id, id: p.invite_id, email: p.email, role: p.role, status: 'pending', invited_by: p.invited_by, created_at: e.created_at, expires_at: p.expires_at })
        .onConflict(['tenant_id', 'id'])
        .merge();
      return;
  }
}

export const membersProjector: Projector = {
  name: 'members',
  handles: ['member.joined', 'member.role_changed', 'member.removed', 'member.invited'],
  tables: ['invites', 'members'],
  async project(db, events) {
    for (const e of events) await applyOne(db, e);
  },
};
