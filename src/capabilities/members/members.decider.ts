// Pure membership rules: who may grant which role, and that a workspace never
// loses its last owner.
import { Conflict, Forbidden, NotFound } from '../../platform/errors.js';
import type { Role } from '../../api/scopes.js';
import type { WorkspaceEvent } from '../workspaces/index.js';
import type { MemberEvent } from './members.events.js';

export interface MemberView {
  id: string;
  role: Role;
  status: 'active' | 'removed';
}

export interface MembershipState {
  actor: { memberId: string; role: Role };
  target: MemberView | null;
  activeOwners: number;
  /** the target's invites still pending (accepted and revoked ones are done) */
  pendingInvites?: readonly PendingInvite[];
}

export interface PendingInvite {
  id: string;
  role: Role;
}

function requireOwnerFor(actorRole: Role, touchesOwner: boolean): void {
  if (touchesOwner && actorRole !== 'owner') throw new Forbidden('owner_required', 'Only an owner can grant, change or remove the owner role.');
}

/**
 * Whether a member of `role` may grant `invited` by inviting someone: owners any role, admins any but owner (the
 * `members:invite` scope and the owner rule), agents and viewers none.
 */
export function mayGrant(role: Role, invited: Role): boolean {
  return role === 'owner' || (role === 'admin' && invited !== 'owner');
}

type RevokeReason = 'revoked' | 'inviter_removed' | 'inviter_demoted';
const revoked = (inviteId: string, by: string, reason: RevokeReason): MemberEvent => ({
  type: 'member.invite_revoked',
  aggregate_type: 'invite',
  aggregate_id: inviteId,
  payload: { invite_id: inviteId, revoked_by: by, reason },
});

export function decideChangeRole(cmd: { memberId: string; role: Role }, s: MembershipState): MemberEvent[] {
  if (!s.target || s.target.status !== 'active') throw new NotFound('member');
  requireOwnerFor(s.actor.role, cmd.role === 'owner' || s.target.role === 'owner');
  if (s.target.role === cmd.role) return [];
  if (s.target.role === 'owner' && s.activeOwners <= 1) throw new Conflict('last_owner', 'The last owner cannot be demoted; make another member owner first.');
  return [
    {
      type: 'member.role_changed',
      aggregate_type: 'member',
      aggregate_id: cmd.memberId,
      payload: { member_id: cmd.memberId, from: s.target.role, to: cmd.role },
    },
    // The invites they could make as they were, and could not make now, go with the old role.
    ...(s.pendingInvites ?? []).filter((i) => !mayGrant(cmd.role, i.role)).map((i) => revoked(i.id, s.actor.memberId, 'inviter_demoted')),
  ];
}

export function decideRemove(cmd: { memberId: string }, s: MembershipState): MemberEvent[] {
  if (!s.target || s.target.status !== 'active') throw new NotFound('member');
  requireOwnerFor(s.actor.role, s.target.role === 'owner');
  if (s.target.role === 'owner' && s.activeOwners <= 1) throw new Conflict('last_owner', 'The last owner cannot be removed.');
  return [
    { type: 'member.removed', aggregate_type: 'member', aggregate_id: cmd.memberId, payload: { member_id: cmd.memberId, removed_by: s.actor.memberId } },
    // A removed member's invites would otherwise outlive them, granting what they can no longer grant.
    ...(s.pendingInvites ?? []).map((i) => revoked(i.id, s.actor.memberId, 'inviter_removed')),
  ];
}

export interface RevokeState {
  actor: { memberId: string; role: Role };
  invite: { status: 'pending' | 'accepted' | 'revoked'; role: Role } | null;
}

/** Revokes a pending invite (expired or not: revoking also forgets the invitee's e-mail). A repeat decides nothing. */
export function decideRevokeInvite(cmd: { inviteId: string }, s: RevokeState): MemberEvent[] {
  if (!s.invite) throw new NotFound('invite');
  requireOwnerFor(s.actor.role, s.invite.role === 'owner');
  if (s.invite.status === 'revoked') return [];
  if (s.invite.status === 'accepted') throw new Conflict('member_active', 'This invite was accepted: remove the member instead (DELETE /api/members/{id}).');
  return [revoked(cmd.inviteId, s.actor.memberId, 'revoked')];
}

export interface InviteCommand {
  inviteId: string;
  email: string;
  role: Role;
  expiresAt: string;
}

export function decideInvite(cmd: InviteCommand, s: { actor: { memberId: string; role: Role }; alreadyMember: boolean }): MemberEvent[] {
  requireOwnerFor(s.actor.role, cmd.role === 'owner');
  if (s.alreadyMember) throw new Conflict('already_member', 'This e-mail already belongs to a member of the workspace.');
  return [
    {
      type: 'member.invited',
      aggregate_type: 'invite',
      aggregate_id: cmd.inviteId,
      payload: { invite_id: cmd.inviteId, email: cmd.email, role: cmd.role, invited_by: s.actor.memberId, expires_at: cmd.expiresAt },
    },
  ];
}

export interface AcceptCommand {
  inviteId: string;
  memberId: string;
  userId: string;
  email: string;
  name: string;
}

export interface InviteView {
  status: 'pending' | 'accepted' | 'revoked';
  role: Role;
  expiresAt: Date;
}

export interface AcceptState {
  invite: InviteView | null;
  /** who sent the invite, as they are now (null: no longer found) */
  inviter: MemberView | null;
  alreadyMember: boolean;
  now: Date;
}

export function decideAccept(cmd: AcceptCommand, s: AcceptState): MemberEvent[] {
  if (!s.invite || s.invite.status !== 'pending' || s.invite.expiresAt.getTime() <= s.now.getTime()) {
    throw new NotFound('invite', 'invite_not_found');
  }
  // An invite grants what its inviter may grant now, not what they could when they sent it: a removed or demoted
  // inviter's invites are revoked with them, and this holds for any that were not (sent while the removal ran).
  if (!s.inviter || s.inviter.status !== 'active' || !mayGrant(s.inviter.role, s.invite.role)) {
    throw new Conflict('inviter_cannot_grant', 'The member who sent this invite can no longer grant this role; ask for a new invite.');
  }
  if (s.alreadyMember) throw new Conflict('already_member', 'You are already a member of this workspace.');
  return [
    {
      type: 'member.joined',
      aggregate_type: 'member',
      aggregate_id: cmd.memberId,
      payload: { member_id: cmd.memberId, user_id: cmd.userId, email: cmd.email, name: cmd.name, role: s.invite.role, invite_id: cmd.inviteId },
    },
  ];
}

export interface CreateWorkspace {
  workspaceId: string;
  name: string;
  owner: { memberId: string; userId: string; email: string; name: string };
}

/** A workspace starts with its owner as its first member. */
export function decideCreateWorkspace(cmd: CreateWorkspace, state: { exists: boolean }): (WorkspaceEvent | MemberEvent)[] {
  if (state.exists) throw new Conflict('workspace_exists', 'This workspace already exists.');
  return [
    { type: 'workspace.created', aggregate_type: 'workspace', aggregate_id: cmd.workspaceId, payload: { workspace_id: cmd.workspaceId, name: cmd.name } },
    {
      type: 'member.joined',
      aggregate_type: 'member',
      aggregate_id: cmd.owner.memberId,
      payload: { member_id: cmd.owner.memberId, user_id: cmd.owner.userId, email: cmd.owner.email, name: cmd.owner.name, role: 'owner' },
    },
  ];
}

export interface ErasureState {
  actor: { memberId: string; role: Role };
  target: { id: string; status: 'active' | 'removed'; erasedAt: Date | null; inviteId: string | null } | null;
}

/**
 * An owner forgets a removed member: their name and e-mail become unreadable
 * everywhere (their data keys go). Only a removed member: an active one would
 * keep working under a name nobody can read. A repeat decides nothing.
 */
export function decideEraseMember(cmd: { memberId: string }, s: ErasureState): MemberEvent[] {
  if (s.actor.role !== 'owner') throw new Forbidden('owner_required', 'Only an owner can erase a member.');
  if (!s.target) throw new NotFound('member');
  if (s.target.erasedAt) return [];
  if (s.target.status === 'active')
    throw new Conflict('member_active', 'Remove the member first (DELETE /api/members/{id}); only a removed member can be erased.');
  return [
    {
      type: 'member.erased',
      aggregate_type: 'member',
      aggregate_id: cmd.memberId,
      payload: { member_id: cmd.memberId, invite_id: s.target.inviteId, erased_by: s.actor.memberId },
    },
  ];
}

/** A member sets their own availability; setting the one they have decides nothing. */
export function decideSetAvailability(
  cmd: { memberId: string; availability: 'online' | 'away' },
  s: { member: { status: 'active' | 'removed'; availability: 'online' | 'away' } | null },
): MemberEvent[] {
  if (!s.member || s.member.status !== 'active') throw new NotFound('member');
  if (s.member.availability === cmd.availability) return [];
  return [
    {
      type: 'member.availability_changed',
      aggregate_type: 'member',
      aggregate_id: cmd.memberId,
      payload: { member_id: cmd.memberId, from: s.member.availability, to: cmd.availability },
    },
  ];
}

/**
 * PUT /api/members/{id}: a new role, a new capacity, or both, in one command
 * (both or neither). The role follows decideChangeRole's rules; a capacity
 * (null: no limit) may be set on any active member by whoever may change
 * members. What is unchanged decides nothing.
 */
export function decideUpdateMember(
  cmd: { memberId: string; role?: Role; capacity?: number | null },
  s: MembershipState & { capacity: number | null },
): MemberEvent[] {
  if (!s.target || s.target.status !== 'active') throw new NotFound('member');
  const role = cmd.role === undefined ? [] : decideChangeRole({ memberId: cmd.memberId, role: cmd.role }, s);
  const capacity: MemberEvent[] =
    cmd.capacity === undefined || cmd.capacity === s.capacity
      ? []
      : [
          {
            type: 'member.capacity_changed',
            aggregate_type: 'member',
            aggregate_id: cmd.memberId,
            payload: { member_id: cmd.memberId, from: s.capacity, to: cmd.capacity, changed_by: s.actor.memberId },
          },
        ];
  return [...role, ...capacity];
}
