import type { Db } from '../../commands/command.js';
import { type ListSpec, byCreatedAt } from '../../api/pagination/list.js';
import type { Role } from '../../api/scopes.js';
import { isUuid } from '../../platform/ids.js';
import { constant, dateTime, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { ROLES } from '../../api/scopes.js';
import { AVAILABILITIES } from './members.events.js';
import type { INVITES, MEMBERS } from './members.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

export type Availability = (typeof AVAILABILITIES)[number];

/** A row of `members` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type MemberRow = RowOf<typeof MEMBERS> & {
  role: Role;
  status: 'active' | 'removed';
  /** whether routing gives them conversations now (member.availability_changed); away until they first set it */
  availability: Availability;
};

/** A row of `invites` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type InviteRow = RowOf<typeof INVITES> & {
  role: Role;
  status: 'pending' | 'accepted' | 'revoked';
};

export const memberList: ListSpec = {
  itemType: 'member',
  sorts: { joined_at: { column: 'joined_at', kind: 'timestamp' } },
  defaultSort: 'joined_at',
  defaultOrder: 'asc',
};

export function renderMember(m: MemberRow): Member {
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
    availability: m.availability,
    capacity: m.capacity,
    ...(m.erased_at ? { erased_at: m.erased_at.toISOString() } : {}),
  };
}

export const membersOf = (db: Db, tenantId: string) => db('members').where({ tenant_id: tenantId });

export async function findMember(db: Db, tenantId: string, id: string): Promise<MemberRow | undefined> {
  return isUuid(id) ? membersOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function findActiveMember(db: Db, tenantId: string, id: string | null | undefined): Promise<MemberRow | undefined> {
  return id && isUuid(id) ? membersOf(db, tenantId).andWhere({ id, status: 'active' }).first() : undefined;
}

export async function memberIsActive(db: Db, tenantId: string, memberId: string | null | undefined): Promise<boolean> {
  return !!(await findActiveMember(db, tenantId, memberId));
}

/** Of `ids`, those naming active members of the workspace (teams check rosters with it). */
export async function activeMemberIdsAmong(db: Db, tenantId: string, ids: readonly string[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (!wanted.length) return new Set();
  const rows: { id: string }[] = await membersOf(db, tenantId).andWhere({ status: 'active' }).whereIn('id', wanted).select('id');
  return new Set(rows.map((r) => r.id));
}

/** A member as routing weighs them: availability and capacity (see conversations' routing). */
export interface RoutingMember {
  id: string;
  availability: Availability;
  capacity: number | null;
}

/** Of `ids`, the active members of the workspace, with what routing needs of them (by id). */
export async function routingMembersAmong(db: Db, tenantId: string, ids: readonly string[]): Promise<RoutingMember[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  if (!wanted.length) return [];
  return membersOf(db, tenantId).andWhere({ status: 'active' }).whereIn('id', wanted).orderBy('id').select('id', 'availability', 'capacity');
}

/** The user's active membership of a workspace (session callers name the workspace). */
export async function activeMemberOfUser(db: Db, tenantId: string, userId: string): Promise<MemberRow | undefined> {
  return isUuid(tenantId) ? membersOf(db, tenantId.toLowerCase()).andWhere({ user_id: userId, status: 'active' }).first() : undefined;
}

export async function activeMembershipsOfUser(db: Db, userId: string): Promise<MemberRow[]> {
  return db('members').where({ user_id: userId, status: 'active' });
}

export async function hasActiveMemberWithEmail(db: Db, tenantId: string, email: string): Promise<boolean> {
  return !!(await membersOf(db, tenantId).andWhere({ email, status: 'active' }).first('id'));
}

export async function countActiveOwners(db: Db, tenantId: string): Promise<number> {
  const r = await membersOf(db, tenantId).andWhere({ role: 'owner', status: 'active' }).count<{ n: number }[]>({ n: '*' });
  return Number(r[0]?.n ?? 0);
}

export async function findInvite(db: Db, tenantId: string, id: string): Promise<InviteRow | undefined> {
  return isUuid(id) ? db('invites').where({ tenant_id: tenantId, id }).first() : undefined;
}

export const invitesOf = (db: Db, tenantId: string) => db('invites').where({ tenant_id: tenantId });

/** The invites a member sent that are still pending (expired ones too: they still hold the invitee's e-mail). */
export async function pendingInvitesBy(db: Db, tenantId: string, memberId: string): Promise<{ id: string; role: Role }[]> {
  return invitesOf(db, tenantId).andWhere({ invited_by: memberId, status: 'pending' }).select('id', 'role');
}

export const inviteList: ListSpec = byCreatedAt('invite', 'asc');

/** An invite as the API shows it; `expired`: pending, but past its expiry (it can only be revoked now). */
export function renderInvite(i: InviteRow, now: Date): Invite {
  return {
    type: 'invite',
    id: i.id,
    email: i.email,
    role: i.role,
    status: i.status === 'pending' && i.expires_at.getTime() <= now.getTime() ? 'expired' : i.status,
    invited_by: i.invited_by,
    created_at: i.created_at.toISOString(),
    expires_at: i.expires_at.toISOString(),
  };
}

export const inviteSchema = object(
  {
    type: constant('invite'),
    id: uuid,
    email: nullable(str({ description: "The invitee's e-mail; null once forgotten (the invite was revoked, or the member who accepted it erased)." })),
    role: oneOfStrings(ROLES),
    status: oneOfStrings(['pending', 'expired', 'accepted', 'revoked']),
    invited_by: uuid,
    created_at: dateTime,
    expires_at: dateTime,
  },
  { title: 'Invite' },
);
export type Invite = Static<typeof inviteSchema>;

/** The invite a token opens (only the token's hash is stored). */
export async function findInviteByTokenHash(db: Db, tokenHash: string): Promise<InviteRow | undefined> {
  const found = await db('invite_tokens').where({ token_hash: tokenHash }).first('tenant_id', 'invite_id');
  return found ? findInvite(db, found.tenant_id, found.invite_id) : undefined;
}

export const memberSchema = object(
  {
    type: constant('member'),
    id: uuid,
    user_id: uuid,
    email: nullable(str({ description: 'null once the member is erased' })),
    name: nullable(str({ description: 'null once the member is erased' })),
    role: oneOfStrings(ROLES),
    status: oneOfStrings(['active', 'removed']),
    joined_at: dateTime,
    updated_at: dateTime,
    availability: oneOfStrings(AVAILABILITIES, {
      description:
        '`online`: routing gives them new and reopened conversations of their teams (those with an assignment rule); `away`: none. Set by the member (PUT /api/me/availability); `away` until they first do.',
    }),
    capacity: nullable(
      integer({
        minimum: 0,
        description:
          'The most open conversations assigned to them that routing gives them; null: no limit. Set by owners and admins (PUT /api/members/{id}); assigning by hand may go past it.',
      }),
    ),
    erased_at: dateTime,
  },
  { title: 'Member', optional: ['erased_at'] },
);
export type Member = Static<typeof memberSchema>;
