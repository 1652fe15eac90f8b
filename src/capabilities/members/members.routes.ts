import { Type, type Static } from '@sinclair/typebox';
import { answerCommand } from '../../api/command-context.js';
import { commandRoute } from '../../api/command-route.js';
import { listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, dateTime, ERROR, object, oneOfStrings, str, uuid } from '../../api/schemas.js';
import { ROLES, type Role } from '../../api/scopes.js';
import type { CommandContext } from '../../commands/command.js';
import { eventOf } from '../../eventstore/envelope.js';
import type { Db } from '../../platform/db/database.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { NotFound, Unauthorized } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { findUserByEmail, hashPassword, SigninThrottle, verifyPassword } from '../users/index.js';
import { findWorkspace, renderWorkspace, workspaceSchema } from '../workspaces/index.js';
import { acceptInvite, changeMemberRole, eraseMember, inviteMember, removeMember } from './members.commands.js';
import { findInviteByTokenHash, findMember, memberList, memberSchema, membersOf, renderMember, type MemberRow } from './members.read.js';

const inviteSchema = object(
  {
    type: constant('invite'),
    id: uuid,
    email: str(),
    role: oneOfStrings(ROLES),
    token: str({ description: 'Shown this once; pass it to POST /api/invites/accept.' }),
    expires_at: dateTime,
  },
  { title: 'Invite' },
);

const role = Type.Unsafe<Role>({ type: 'string', enum: [...ROLES] });
const NewInvite = Type.Object({ email: Type.String({ format: 'email', maxLength: 320 }), role }, { additionalProperties: false });
const InviteAcceptance = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 8, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

const membershipSchema = object({ type: constant('membership'), member: memberSchema, workspace: workspaceSchema }, { title: 'Membership' });

export function membersRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock } = deps;
  const throttle = new SigninThrottle(db, clock);
  const memberIn = async (tx: Db, tenantId: string, id: string) => renderMember((await findMember(tx, tenantId, id))!);

  return [
    listRoute<MemberRow, { status?: string; role?: string }>({
      path: '/members',
      permission: 'members:read',
      summary: 'List members',
      item: memberSchema,
      spec: memberList,
      filters: { status: { type: 'string', enum: ['active', 'removed'] }, role: { type: 'string', enum: [...ROLES] } },
      query: ({ principal, query }) => {
        const q = membersOf(db, principal.tenantId).andWhere({ status: query.status ?? 'active' });
        return query.role ? q.andWhere({ role: query.role }) : q;
      },
      render: renderMember,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/members/invites',
      permission: 'members:invite',
      summary: 'Invite a member',
      body: NewInvite,
      command: ({ principal: p, body, write }) => {
        const { spec, token } = inviteMember({
          actor: { memberId: p.memberId, role: p.role },
          inviteId: write.ids.uuid(),
          email: body.email,
          role: body.role,
          now: clock.now(),
        });
        // The token is shown once; only its hash is kept.
        return { spec, extra: { token } };
      },
      answer: {
        status: 201,
        schema: inviteSchema,
        read: async (_tx, events) => {
          const i = eventOf(events, 'member.invited').payload;
          return { type: 'invite', id: i.invite_id, email: i.email, role: i.role, expires_at: i.expires_at };
        },
      },
    }),

    route<Static<typeof InviteAcceptance>>({
      method: 'post',
      path: '/invites/accept',
      permission: 'public',
      summary: 'Accept an invite (join the workspace)',
      responses: { 201: membershipSchema, 401: ERROR, 404: ERROR, 409: ERROR, 429: ERROR },
      body: InviteAcceptance,
      async handle(call) {
        const { body, ctx: rctx, req, write } = call;
        const found = await findInviteByTokenHash(db, sha256Hex(body.token));
        // An invite whose e-mail was erased (with the member who accepted it) cannot be used again.
        if (!found || found.email === null) throw new NotFound('invite', 'invite_not_found');
        const invite = { ...found, email: found.email };
        // Password work for the invitee's e-mail is throttled and queued like a sign-in (users/throttle.ts).
        const pass = await throttle.take(invite.email, req.ip);
        const existing = await findUserByEmail(db, invite.email);
        if (existing && !(await verifyPassword(body.password, existing.password_hash, pass.lane))) {
          throw new Unauthorized('invalid_credentials', "A user with this e-mail exists; accept with that user's password.");
        }
        const now = clock.now();
        const newUser = existing ? null : { passwordHash: await hashPassword(body.password, pass.lane), now };
        const memberId = write.ids.uuid();
        // Not a commandRoute: the caller has no principal (the token names the workspace, and the acceptance acts as the
        // new member), and the password work above runs before the command, outside its transaction.
        const ctx: CommandContext = {
          tenantId: invite.tenant_id,
          now,
          actor: { type: 'member', id: memberId, member_id: memberId },
          requestId: rctx.requestId,
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
              name: existing?.name ?? body.name,
              newUser,
            }),
            async ([joined], tx = db) => ({
              status: 201,
              body: {
                type: 'membership',
                member: await memberIn(tx, invite.tenant_id, joined!.aggregate_id),
                workspace: renderWorkspace((await findWorkspace(tx, invite.tenant_id))!),
              },
            }),
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
      summary: "Change a member's role",
      body: Type.Object({ role }, { additionalProperties: false }),
      command: ({ principal: p, params, body }) => changeMemberRole({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id!, role: body.role }),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.params.id!) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/members/:id',
      permission: 'members:invite',
      summary: 'Remove a member (their keys stop working)',
      command: ({ principal: p, params }) => removeMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id! }),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.params.id!) },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/members/:id/erase',
      permission: 'members:invite',
      summary: 'Erase a removed member (owners only): their name and e-mail become unreadable everywhere; a repeat answers the same',
      command: ({ principal: p, params }) => eraseMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id! }, deps.forgettable),
      answer: { status: 200, schema: memberSchema, read: (tx, _events, call) => memberIn(tx, call.principal.tenantId, call.params.id!) },
    }),
  ];
}
