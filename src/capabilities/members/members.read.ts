import type { Knex } from 'knex';
import type { ListSpec } from '../../api/pagination/list.js';
import { isUuid } from '../../platform/ids.js';

export interface MemberRow {
  tenant_id: string;
  id: string;
  user_id: string;
  email: string;
  name: string;
  role: string;
  status: string;
  joined_at: Date;
  updated_at: Date;
}

export const memberList: ListSpec = {
  itemType: 'member',
  sorts: { joined_at: { column: 'joined_at', kind: 'timestamp' } },
  defaultSort: 'joined_at',
  defaultOrder: 'asc',
};

export function renderMember(m: MemberRow) {
  return {
    type: 'member',
    id: m.id,
    user_id: m.user_id,
    email: m.email,
    name: m.name,
    role: m.role,
    status: m.status,
    joined_at: m.joined_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
  };
}

export async function findMember(db: Knex | Knex.Transaction, tenantId: string, id: string): Promise<MemberRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db('members').where({ tenant_id: tenantId, id }).first();
}

export async function countActiveOwners(db: Knex | Knex.Transaction, tenantId: string): Promise<number> {
  const r = await db('members').where({ tenant_id: tenantId, role: 'owner', status: 'active' }).count<{ n: number }[]>({ n: '*' });
  return Number(r[0]?.n ?? 0);
}
