import { commandContext } from '../../api/command-context.js';
import { listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, dateTime, ERROR, object, oneOfStrings, str, uuid } from '../../api/schemas.js';
import { ROLES, type Role } from '../../api/scopes.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { NotFound, Unauthorized } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { findUserByEmail, hashPassword, SigninThrottle, verifyPassword } from '../users/index.js';
import { findWorkspace, renderWorkspace, workspaceSchema } from '../workspaces/index.js';
import { acceptInvite, changeMemberRole, eraseMember, inviteMember, removeMember } from './members.commands.js';
import { findInviteByTokenHash, findMember, memberList, memberSchema, membersOf, renderMember, type MemberRow } from './members.read.js';

const inviteSchema = object(
  { type: constant('invite'), id: uuid, email: str(), role: oneOfStrings(ROLES), token: str({ description: 'Shown this once; pass it to POST /api/invites/accept.' }), expires_at: dateTime },
  { title: 'Invite' },
);

const membershipSchema = object({ type: constant('membership'), member: memberSchema, workspace: workspaceSchema }, { title: 'Membership' });

export function membersRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock } = deps;
  const throttle = new SigninThrottle(db, clock);
  const reload = async (tenantId: string, id: string) => renderMember((await findMember(db, tenantId, id))!);

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

    route<{ email: string; role: Role }>({
      method: 'post',
      path: '/members/invites',
      permission: 'members:invite',
      summary: 'Invite a member',
      responses: { 201: inviteSchema },
      body: {
        additionalProperties: false,
        required: ['email', 'role'],
        properties: { email: { type: 'string', format: 'email', maxLength: 320 }, role: { type: 'string', enum: [...ROLES] } },
      },
      async handle(call) {
        const { principal: p, body } = call;
        const ctx = commandContext(call, clock);
        const { spec, token } = inviteMember({ actor: { memberId: p.memberId, role: p.role }, inviteId: call.write.ids.uuid(), email: body.email, role: body.role, now: ctx.now });
        const [invited] = await shell.execute(ctx, spec);
        const i = invited!.payload as { invite_id: string; email: string; role: Role; expires_at: string };
        // The token is shown once; only its hash is kept.
        return { status: 201, body: { type: 'invite', id: i.invite_id, email: i.email, role: i.role, token, expires_at: i.expires_at } };
      },
    }),

    route<{ token: string; name: string; password: string }>({
      method: 'post',
      path: '/invites/accept',
      permission: 'public',
      summary: 'Accept an invite (join the workspace)',
      responses: { 201: membershipSchema, 401: ERROR, 404: ERROR, 409: ERROR, 429: ERROR },
      body: {
        additionalProperties: false,
        required: ['token', 'name', 'password'],
        properties: {
          token: { type: 'string', minLength: 1, maxLength: 200 },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          password: { type: 'string', minLength: 8, maxLength: 1024 },
        },
      },
      async handle({ body, ctx: rctx, req, write }) {
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
        // The token named the workspace: the acceptance acts as it, behind row-level security.
        return deps.scope.run(invite.tenant_id, async () => {
          const [joined] = await shell.execute(
            { tenantId: invite.tenant_id, now, actor: { type: 'member', id: memberId, member_id: memberId }, requestId: rctx.requestId },
            acceptInvite({ inviteId: invite.id, memberId, userId: existing?.id ?? write.ids.uuid(), email: invite.email, name: existing?.name ?? body.name, newUser }),
          );
          await pass.refund();
        const workspace = (await findWorkspace(db, invite.tenant_id))!;
          return { status: 201, body: { type: 'membership', member: await reload(invite.tenant_id, joined!.aggregate_id), workspace: renderWorkspace(workspace) } };
        });
      },
    }),

    route<{ role: Role }>({
      method: 'put',
      path: '/members/:id',
      permission: 'members:invite',
      summary: 'Change a member\'s role',
      responses: { 200: memberSchema },
      body: { additionalProperties: false, required: ['role'], properties: { role: { type: 'string', enum: [...ROLES] } } },
      async handle(call) {
        const { principal: p, params, body } = call;
        await shell.execute(commandContext(call, clock), changeMemberRole({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id!, role: body.role }));
        return { status: 200, body: await reload(p.tenantId, params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/members/:id',
      permission: 'members:invite',
      summary: 'Remove a member (their keys stop working)',
      responses: { 200: memberSchema },
      async handle(call) {
        const { principal: p, params } = call;
        await shell.execute(commandContext(call, clock), removeMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id! }));
        return { status: 200, body: await reload(p.tenantId, params.id!) };
      },
    }),

    route({
      method: 'post',
      path: '/members/:id/erase',
      permission: 'members:invite',
      summary: "Erase a removed member (owners only): their name and e-mail become unreadable everywhere; a repeat answers the same",
      responses: { 200: memberSchema },
      async handle(call) {
        const { principal: p, params } = call;
        await shell.execute(commandContext(call, clock), eraseMember({ actor: { memberId: p.memberId, role: p.role }, memberId: params.id! }, deps.forgettable));
        return { status: 200, body: await reload(p.tenantId, params.id!) };
      },
    }),
  ];
}
