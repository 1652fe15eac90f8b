// Membership commands, built from plain inputs; routes, the CLI and tests run them through the shell.
import { randomBytes } from 'node:crypto';
import type { CommandContext, CommandSpec } from '../../commands/command.js';
import type { CommandShell } from '../../commands/shell.js';
import type { Role } from '../../api/scopes.js';
import type { Clock } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { Unauthorized } from '../../platform/errors.js';
import type { Ids } from '../../platform/ids.js';
import type { Knex } from 'knex';
import { findUserByEmail, forgetUserIfUnattached, hashPassword, insertUser, normalizeEmail, verifyPassword } from '../users/index.js';
import { findWorkspace, type WorkspaceEvent } from '../workspaces/index.js';
import {
  decideAccept,
  decideChangeRole,
  decideCreateWorkspace,
  decideEraseMember,
  decideInvite,
  decideRemove,
  decideRevokeInvite,
  decideSetAvailability,
  decideUpdateMember,
  type AcceptState,
  type ErasureState,
  type MembershipState,
  type RevokeState,
} from './members.decider.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import type { MemberEvent } from './members.events.js';
import { countActiveOwners, findInvite, findMember, hasActiveMemberWithEmail, activeMemberOfUser, pendingInvitesBy } from './members.read.js';
import type { Db } from '../../commands/command.js';

export const INVITE_TTL_MS = 7 * 24 * 3600_000;

interface Actor {
  memberId: string;
  role: Role;
}

async function membershipState(db: Db, tenantId: string, actor: Actor, targetId: string): Promise<MembershipState> {
  const target = await findMember(db, tenantId, targetId);
  return {
    actor,
    target: target ? { id: target.id, role: target.role, status: target.status } : null,
    activeOwners: await countActiveOwners(db, tenantId),
    pendingInvites: target ? await pendingInvitesBy(db, tenantId, target.id) : [],
  };
}

/**
 * What a revoked invite leaves beside the log: its token stops working, and its data key goes, so the invitee's
 * e-mail (someone who never joined) is forgotten in the log, the feed and delivery records, in the same transaction.
 */
const forgetRevoked =
  (forgettable: Forgettable): NonNullable<CommandSpec<unknown, MemberEvent>['beside']> =>
  async (db, events, ctx) => {
    const ids = events.flatMap((e) => (e.type === 'member.invite_revoked' ? [e.payload.invite_id] : []));
    if (ids.length === 0) return;
    await db('invite_tokens').where({ tenant_id: ctx.tenantId }).whereIn('invite_id', ids).del();
    await forgettable.destroy(
      db,
      ctx.tenantId,
      ids.map((id) => `invite:${id}`),
    );
  };

/** Changes a member's role; the invites they could no longer send are revoked in the same command. */
export const changeMemberRole = (
  input: { actor: Actor; memberId: string; role: Role },
  forgettable: Forgettable,
): CommandSpec<MembershipState, MemberEvent> => ({
  name: 'ChangeMemberRole',
  load: (db, ctx) => membershipState(db, ctx.tenantId, input.actor, input.memberId),
  decide: (s) => decideChangeRole({ memberId: input.memberId, role: input.role }, s),
  beside: forgetRevoked(forgettable),
});

/** Changes a member's role, capacity or both (PUT /api/members/{id}); invites they could no longer send are revoked with a demotion. */
export const updateMember = (
  input: { actor: Actor; memberId: string; role?: Role; capacity?: number | null },
  forgettable: Forgettable,
): CommandSpec<MembershipState & { capacity: number | null }, MemberEvent> => ({
  name: input.capacity === undefined ? 'ChangeMemberRole' : 'UpdateMember',
  load: async (db, ctx) => ({
    ...(await membershipState(db, ctx.tenantId, input.actor, input.memberId)),
    capacity: (await findMember(db, ctx.tenantId, input.memberId))?.capacity ?? null,
  }),
  decide: (s) => decideUpdateMember(input, s),
  beside: forgetRevoked(forgettable),
});

/** A member sets their own availability (PUT /api/me/availability). */
export const setAvailability = (input: {
  memberId: string;
  availability: 'online' | 'away';
}): CommandSpec<Parameters<typeof decideSetAvailability>[1], MemberEvent> => ({
  name: 'SetAvailability',
  load: async (db, ctx) => {
    const m = await findMember(db, ctx.tenantId, input.memberId);
    return { member: m ? { status: m.status, availability: m.availability } : null };
  },
  decide: (s) => decideSetAvailability(input, s),
});

/** Removes a member; their pending invites are revoked in the same command. */
export const removeMember = (input: { actor: Actor; memberId: string }, forgettable: Forgettable): CommandSpec<MembershipState, MemberEvent> => ({
  name: 'RemoveMember',
  load: (db, ctx) => membershipState(db, ctx.tenantId, input.actor, input.memberId),
  decide: (s) => decideRemove({ memberId: input.memberId }, s),
  beside: forgetRevoked(forgettable),
});

/** Revokes a pending invite: its token stops working and the invitee's e-mail is forgotten. */
export const revokeInvite = (input: { actor: Actor; inviteId: string }, forgettable: Forgettable): CommandSpec<RevokeState, MemberEvent> => ({
  name: 'RevokeInvite',
  load: async (db, ctx) => {
    const inv = await findInvite(db, ctx.tenantId, input.inviteId);
    return { actor: input.actor, invite: inv ? { status: inv.status, role: inv.role } : null };
  },
  decide: (s) => decideRevokeInvite({ inviteId: input.inviteId }, s),
  beside: forgetRevoked(forgettable),
});

/**
 * Erases a removed member: destroys their data keys (and their invite's) in the
 * transaction that appends member.erased, and deletes their sign-in account
 * when they are no longer an active member of any workspace.
 */
export const eraseMember = (
  input: { actor: Actor; memberId: string },
  forgettable: Forgettable,
): CommandSpec<ErasureState & { userId: string | null }, MemberEvent> => ({
  name: 'EraseMember',
  load: async (db, ctx) => {
    const m = await findMember(db, ctx.tenantId, input.memberId);
    return {
      actor: input.actor,
      target: m ? { id: m.id, status: m.status, erasedAt: m.erased_at, inviteId: m.invite_id } : null,
      userId: m?.user_id ?? null,
    };
  },
  decide: (s) => decideEraseMember({ memberId: input.memberId }, s),
  beside: async (db, events, ctx) => {
    for (const e of events) {
      if (e.type !== 'member.erased') continue;
      await forgettable.destroy(db, ctx.tenantId, [`member:${e.payload.member_id}`, ...(e.payload.invite_id ? [`invite:${e.payload.invite_id}`] : [])]);
      const m = await findMember(db, ctx.tenantId, e.payload.member_id);
      if (m) await forgetUserIfUnattached(db, m.user_id);
    }
  },
});

/** An invite; the returned token is shown once, only its hash is kept (beside the log). */
export function inviteMember(input: { actor: Actor; inviteId: string; email: string; role: Role; now: Date }) {
  const token = randomBytes(32).toString('base64url');
  const email = normalizeEmail(input.email);
  const expiresAt = new Date(input.now.getTime() + INVITE_TTL_MS).toISOString();
  const spec: CommandSpec<{ actor: Actor; alreadyMember: boolean }, MemberEvent> = {
    name: 'InviteMember',
    load: async (db, ctx) => ({ actor: input.actor, alreadyMember: await hasActiveMemberWithEmail(db, ctx.tenantId, email) }),
    decide: (s) => decideInvite({ inviteId: input.inviteId, email, role: input.role, expiresAt }, s),
    beside: (db, events, ctx) => db('invite_tokens').insert({ invite_id: events[0]!.aggregate_id, tenant_id: ctx.tenantId, token_hash: sha256Hex(token) }),
    // The first attempt's token was never shown: the resumed request's token replaces it.
    replayed: (db, events, ctx) =>
      db('invite_tokens')
        .where({ invite_id: events[0]!.aggregate_id, tenant_id: ctx.tenantId })
        .update({ token_hash: sha256Hex(token) }),
  };
  return { spec, token };
}

export function acceptInvite(input: {
  inviteId: string;
  memberId: string;
  userId: string;
  email: string;
  name: string;
  newUser: { passwordHash: string; now: Date } | null;
}): CommandSpec<AcceptState, MemberEvent> {
  return {
    name: 'AcceptInvite',
    load: async (db, ctx) => {
      const inv = await findInvite(db, ctx.tenantId, input.inviteId);
      const inviter = inv ? await findMember(db, ctx.tenantId, inv.invited_by) : undefined;
      return {
        now: ctx.now,
        invite: inv ? { status: inv.status, role: inv.role, expiresAt: inv.expires_at } : null,
        inviter: inviter ? { id: inviter.id, role: inviter.role, status: inviter.status } : null,
        alreadyMember: !!(await activeMemberOfUser(db, ctx.tenantId, input.userId)),
      };
    },
    decide: (s) => decideAccept(input, s),
    beside: async (db) => {
      if (input.newUser)
        await insertUser(db, {
          id: input.userId,
          email: input.email,
          name: input.name,
          password_hash: input.newUser.passwordHash,
          created_at: input.newUser.now,
        });
      await db('invite_tokens').where({ invite_id: input.inviteId }).del();
    },
  };
}

export interface CreateWorkspaceInput {
  name: string;
  ownerEmail: string;
  ownerPassword: string;
  ownerName?: string;
}

/**
 * Founds a workspace with its owner (the CLI bootstrap). Password work happens
 * before the command so the tenant lock is never held through scrypt.
 */
export async function createWorkspace(
  deps: { db: Knex; shell: CommandShell; clock: Clock; ids: Ids; config: { passwordHashCost: number } },
  input: CreateWorkspaceInput,
) {
  const email = normalizeEmail(input.ownerEmail);
  const existing = await findUserByEmail(deps.db, email);
  // An existing user may own several workspaces, but only by proving it is them.
  if (existing && !(await verifyPassword(input.ownerPassword, existing.password_hash))) {
    throw new Unauthorized('invalid_credentials', 'A user with this e-mail exists and the password does not match.');
  }
  const passwordHash = existing ? null : await hashPassword(input.ownerPassword, undefined, deps.config.passwordHashCost);
  const workspaceId = deps.ids.uuid();
  const owner = { memberId: deps.ids.uuid(), userId: existing?.id ?? deps.ids.uuid(), email, name: input.ownerName ?? existing?.name ?? email.split('@')[0]! };
  const now = deps.clock.now();
  const ctx: CommandContext = { tenantId: workspaceId, now, actor: { type: 'system', id: 'cli' } };
  const spec: CommandSpec<{ exists: boolean }, WorkspaceEvent | MemberEvent> = {
    name: 'CreateWorkspace',
    load: async (db) => ({ exists: !!(await findWorkspace(db, workspaceId)) }),
    decide: (state) => decideCreateWorkspace({ workspaceId, name: input.name, owner }, state),
    beside: async (db) => {
      if (passwordHash) await insertUser(db, { id: owner.userId, email, name: owner.name, password_hash: passwordHash, created_at: now });
    },
  };
  await deps.shell.execute(ctx, spec);
  return { workspace_id: workspaceId, member_id: owner.memberId, user_id: owner.userId, name: input.name, owner_email: email };
}
