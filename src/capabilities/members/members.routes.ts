import { Type, type Static } from '@sinclair/typebox';
import { answerCommand, requestClient } from '../../api/command-context.js';
import { commandRoute } from '../../api/command-route.js';
import { listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, ERROR, extend, object, oneOfStrings, str } from '../../api/schemas.js';
import { ROLES, type Role } from '../../api/scopes.js';
import type { CommandContext } from '../../commands/command.js';
import type { Db } from '../../platform/db/database.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { AppError, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { findUserByEmail, hashPassword, normalizeEmail, SigninThrottle, verifyPassword, type BucketSpec } from '../users/index.js';
import { findWorkspace, renderWorkspace, workspaceSchema } from '../workspaces/index.js';
import { acceptInvite, eraseMember, inviteMember, removeMember, revokeInvite, setAvailability, updateMember } from './members.commands.js';
import { decideInvite } from './members.decider.js';
import { mailInvite } from './members.mail.js';
import { AVAILABILITIES } from './members.events.js';
import {
  findInvite,
  findInviteByTokenHash,
  findMember,
  hasActiveMemberWithEmail,
  inviteList,
  inviteSchema,
  invitesOf,
  memberList,
  memberSchema,
  membersOf,
  renderInvite,
  renderMember,
  type Availability,
  type InviteRow,
  type MemberRow,
} from './members.read.js';

const newInviteSchema = extend(
  inviteSchema,
  {
    delivery: oneOfStrings(['email', 'answer'], {
      description:
        "`email`: the token went to the invitee's mailbox (the operator set SMTP_RELAY_URL) and is not in this answer; `answer`: no relay, the token is here.",
    }),
    token: str({
      description: 'Only without a mail relay (`delivery: "answer"`): shown this once; pass it to the invitee, who accepts with POST /api/invites/accept.',
    }),
  },
  { title: 'NewInvite', optional: ['token'] },
);

const acceptanceSchema = object(
  {
    type: constant('invite_acceptance'),
    status: constant('accepted'),
    email: str({ description: 'The address the invite is for: sign in with it (POST /api/session) to reach the workspace.' }),
    workspace: workspaceSchema,
  },
  {
    title: 'InviteAcceptance',
    description:
      'The same answer whether or not the address had an account, and whatever the password: with the password of an existing account, or any new password for an address without one, the membership is there when you sign in; with a wrong one, nothing changed and the invite still works.',
  },
);

const role = Type.Unsafe<Role>({ type: 'string', enum: [...ROLES] });
/** One type naming null, as ajv reports it (not an anyOf). */
const capacity = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 0,
  maximum: 10000,
  description: 'The most open conversations assigned to the member that routing gives them; null: no limit.',
});
const MemberChange = Type.Object(
  { role: Type.Optional(role), capacity: Type.Optional(capacity) },
  { additionalProperties: false, minProperties: 1, description: 'A new role, a new capacity, or both.' },
);
const AvailabilityChange = Type.Object({ status: Type.Unsafe<Availability>({ type: 'string', enum: [...AVAILABILITIES] }) }, { additionalProperties: false });
const NewInvite = Type.Object({ email: Type.String({ format: 'email', maxLength: 320 }), role }, { additionalProperties: false });
const InviteAcceptance = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

/** Invites per inviter: a burst of 20, then one every 3 minutes (20 an hour). */
export const INVITE_BUCKET: BucketSpec = { capacity: 20, refillPerSecond: 1 / 180 };

const tooManyInvites = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'too_many_invites',
    `Too many invites from this member: ${INVITE_BUCKET.capacity} at once, then one every ${Math.round(1 / INVITE_BUCKET.refillPerSecond / 60)} minutes. Retry after ${retryAfterSeconds} s.`,
    undefined,
    [],
    { 'Retry-After': String(retryAfterSeconds) },
  );

export function membersRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock } = deps;
  const throttle = new SigninThrottle(db, clock);
  const memberIn = async (tx: Db, tenantId: string, id: string) => renderMember((await findMember(tx, tenantId, id))!);

  return [
    listRoute<MemberRow, { status?: string; role?: string; availability?: string }>({
      path: '/members',
      permission: 'members:read',
      summary: 'List members',
      item: memberSchema,
      spec: memberList,
      filters: {
        status: { type: 'string', enum: ['active', 'removed'] },
        role: { type: 'string', enum: [...ROLES] },
        availability: { type: 'string', enum: [...AVAILABILITIES], description: 'Who is online (or away) for routing now.' },
      },
      query: ({ principal, query }) => {
        const q = membersOf(db, principal.tenantId).andWhere({ status: query.status ?? 'active' });
        if (query.availability) q.andWhere({ availability: query.availability });
        return query.role ? q.andWhere({ role: query.role }) : q;
      },
      render: renderMember,
    }),

    listRoute<InviteRow, { status?: 'pending' | 'expired' }>({
      path: '/members/invites',
      permission: 'members:read',
      summary: 'List the pending invites (or, with status=expired, those past their expiry: revoke them to forget their e-mails)',
      item: inviteSchema,
      spec: inviteList,
      filters: { status: { type: 'string', enum: ['pending', 'expired'] } },
      query: ({ principal, query }) =>
        invitesOf(db, principal.tenantId)
          .andWhere({ status: 'pending' })
          .andWhere('expires_at', query.status === 'expired' ? '<=' : '>', clock.now()),
      render: (i) => renderInvite(i, clock.now()),
    }),

    // Not a commandRoute: with a mail relay the token is mailed before the command commits (a relay that refuses
    // leaves nothing behind, and an invite nobody can accept never exists), and the answer then carries no token.
    route<Static<typeof NewInvite>>({
      method: 'post',
      path: '/members/invites',
      permission: 'members:invite',
      summary: "Invite a member (the token goes to the invitee's mailbox when the operator set a mail relay)",
      body: NewInvite,
      responses: { 201: newInviteSchema, 403: ERROR, 409: ERROR, 429: ERROR, 503: ERROR },
      async handle(call) {
        const { principal: p, body, write } = call;
        // Per inviter, before anything else, when invites go out by mail: the service's own sender is no one's mass
        // mailer. Without a relay nothing is mailed (the token is in the answer, for the caller to pass on), so an
        // integration creating members in bulk is not held to a mailing pace.
        if (deps.mail) {
          const wait = await throttle.takeToken('invite', p.memberId, INVITE_BUCKET);
          if (wait !== null) throw tooManyInvites(wait);
        }
        const actor = { memberId: p.memberId, role: p.role };
        const { spec, token } = inviteMember({ actor, inviteId: write.ids.uuid(), email: body.email, role: body.role, now: clock.now() });
        if (deps.mail) {
          // Refusals first (nothing is mailed for an invite that will not be made); the command decides again.
          decideInvite(
            { inviteId: '', email: '', role: body.role, expiresAt: '' },
            { actor, alreadyMember: await hasActiveMemberWithEmail(db, p.tenantId, normalizeEmail(body.email)) },
          );
          await mailInvite(deps, { to: normalizeEmail(body.email), token, role: body.role, tenantId: p.tenantId, inviterId: p.memberId });
        }
        return answerCommand(call, deps, spec, async ([invited], tx = db) => ({
          status: 201,
          body: {
            ...renderInvite((await findInvite(tx, p.tenantId, invited!.aggregate_id))!, clock.now()),
            ...(deps.mail ? { delivery: 'email' } : { delivery: 'answer', token }),
          } satisfies Static<typeof newInviteSchema>,
        }));
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/members/invites/:id',
      permission: 'members:invite',
      summary: "Revoke a pending invite: its token stops working and the invitee's e-mail is forgotten; a repeat answers the same",
      responses: { 403: ERROR, 404: ERROR, 409: ERROR },
      command: ({ principal: p, params }) => revokeInvite({ actor: { memberId: p.memberId, role: p.role }, inviteId: params.id }, deps.forgettable),
      answer: {
        status: 200,
        schema: inviteSchema,
        read: async (tx, _events, call) => renderInvite((await findInvite(tx, call.principal.tenantId, call.params.id))!, clock.now()),
      },
    }),

    route<Static<typeof InviteAcceptance>>({
      method: 'post',
      path: '/invites/accept',
      permission: 'public',
      summary: 'Accept an invite (join the workspace); the answer is the same whether or not the address has an account',
      responses: { 202: acceptanceSchema, 404: ERROR, 409: ERROR, 429: ERROR },
      body: InviteAcceptance,
      async handle(call) {
        const { body, ctx: rctx, req, write } = call;
        const found = await findInviteByTokenHash(db, sha256Hex(body.token));
        // An invite whose e-mail was forgotten (revoked, or its member erased) cannot be used again.
        if (!found || found.email === null) throw new NotFound('invite', 'invite_not_found');
        const invite = { ...found, email: found.email };
        const workspace = renderWorkspace((await findWorkspace(db, invite.tenant_id))!);
        // The answer says nothing of the account: whether the address had one, and whether the password was its
        // password. Holding an invite token must not tell its holder (the inviter, without a relay) either.
        const accepted = {
          status: 202,
          body: { type: 'invite_acceptance', status: 'accepted', email: invite.email, workspace } satisfies Static<typeof acceptanceSchema>,
        };
        // Password work for the invitee's e-mail is throttled and queued like a sign-in (users/throttle.ts).
        const pass = await throttle.take(invite.email, req.ip);
        const existing = await findUserByEmail(db, invite.email);
        // One scrypt derivation either way: checking the account's password, or hashing the new account's.
        const now = clock.now();
        const newUser = existing ? null : { passwordHash: await hashPassword(body.password, pass.lane, deps.config.passwordHashCost), now };
        if (existing && !(await verifyPassword(body.password, existing.password_hash, pass.lane))) return accepted;
        const memberId = write.ids.uuid();
        // Not a commandRoute: the caller has no principal (the token names the workspace, and the acceptance acts as the
        // new member), and the password work above runs before the command, outside its transaction.
        const ctx: CommandContext = {
          tenantId: invite.tenant_id,
          now,
          actor: { type: 'member', id: memberId, member_id: memberId },
          requestId: rctx.requestId,
          // the joining member's address and user agent, sealed into the event's metadata like any other actor's
          client: requestClient(req),
        };
        // The token named the workspace: the acceptance acts as it, behind row-level security.
        return deps.scope.run(invite.tenant_id, async () => {
          const answer = await answerCommand(
            call,
            deps,
            acceptInvite({
              inviteId: invite.id,
              memberId,
              userId: existing?.id ?? write.ids.uuid(),
              email: invite.email,
              // the name given here is the member's in this workspace, whoever the account is
              name: body.name,
              newUser,
            }),
            async () => accepted,
            ctx,
          );
          await pass.refund();
          return answer;
        });
      },
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/members/:id',
      permission: 'members:invite',
      summary: "Change a member's role, capacity (routing's limit of open conversations), or both",
      body: MemberChange,
      command: ({ principal: p, params, body }) =>
        updateMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id, role: body.role, capacity: body.capacity }, deps.forgettable),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/me/availability',
      permission: 'authenticated',
      summary: 'Set your own availability: online (routing gives you conversations of your teams) or away (none)',
      body: AvailabilityChange,
      command: ({ principal: p, body }) => setAvailability({ memberId: p.memberId, availability: body.status }),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.principal.memberId) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/members/:id',
      permission: 'members:invite',
      summary: 'Remove a member (their keys stop working, their pending invites are revoked)',
      command: ({ principal: p, params }) => removeMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id }, deps.forgettable),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/members/:id/erase',
      permission: 'members:invite',
      summary: 'Erase a removed member (owners only): their name and e-mail become unreadable everywhere; a repeat answers the same',
      command: ({ principal: p, params }) => eraseMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id }, deps.forgettable),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.params.id) },
    }),
  ];
}
