import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { commandContext } from '../../api/command-context.js';
import { applyKeyset, listQuerySchema, parseCursor, toPage, isoKey, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { CoreDeps } from '../capability.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { NotFound, Unauthorized } from '../../platform/errors.js';
import { ROLES, type Role } from '../access/scopes.js';
import { hashPassword, verifyPassword } from '../access/passwords.js';
import { SigninThrottle } from '../access/throttle.js';
import { findUserByEmail, insertUser, normalizeEmail } from '../access/users.repo.js';
import { decideAccept, decideChangeRole, decideInvite, decideRemove, type MembershipState } from './members.decider.js';
import { countActiveOwners, findMember, memberList, renderMember, type MemberRow } from './members.read.js';

const INVITE_TTL_MS = 7 * 24 * 3600_000;

async function membershipState(db: Knex | Knex.Transaction, tenantId: string, actor: { memberId: string; role: Role }, targetId: string): Promise<MembershipState> {
  const target = await findMember(db, tenantId, targetId);
  return {
    actor,
    target: target ? { id: target.id, role: target.role as Role, status: target.status as 'active' | 'removed' } : null,
    activeOwners: await countActiveOwners(db, tenantId),
  };
}

export function memberRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock, ids } = deps;
  const throttle = new SigninThrottle(db, clock);
  const reload = async (tenantId: string, id: string) => renderMember((await findMember(db, tenantId, id))!);

  return [
    route<unknown, ListParams & { status?: string; role?: string }>({
      method: 'get',
      path: '/members',
      permission: 'members:read',
      query: listQuerySchema(memberList, { status: { type: 'string', enum: ['active', 'removed'] }, role: { type: 'string', enum: [...ROLES] } }),
      async handle({ principal, query }) {
        const cursor = parseCursor(memberList, query);
        const q = db('members').where({ tenant_id: principal.tenantId, status: query.status ?? 'active' });
        if (query.role) q.andWhere({ role: query.role });
        const rows = await applyKeyset(q, memberList, query, cursor);
        return { status: 200, body: toPage(memberList, query, rows as MemberRow[], (r) => isoKey(r.joined_at), (r) => r.id, renderMember) };
      },
    }),

    route<{ email: string; role: Role }>({
      method: 'post',
      path: '/members/invites',
      permission: 'members:invite',
      body: {
        additionalProperties: false,
        required: ['email', 'role'],
        properties: { email: { type: 'string', format: 'email', maxLength: 320 }, role: { type: 'string', enum: [...ROLES] } },
      },
      async handle(call) {
        const { principal, body } = call;
        const ctx = commandContext(call, clock);
        const inviteId = ids.uuid();
        const email = normalizeEmail(body.email);
        const token = randomBytes(32).toString('base64url');
        const expiresAt = new Date(ctx.now.getTime() + INVITE_TTL_MS).toISOString();
        await shell.execute(ctx, {
          name: 'InviteMember',
          load: async (tx) => ({
            actor: { memberId: principal.memberId, role: principal.role },
            alreadyMember: !!(await tx('members').where({ tenant_id: principal.tenantId, email, status: 'active' }).first('id')),
          }),
          decide: (s) => decideInvite({ inviteId, email, role: body.role, expiresAt }, s),
          beside: (tx) => tx('invite_tokens').insert({ invite_id: inviteId, tenant_id: principal.tenantId, token_hash: sha256Hex(token) }),
        });
        // The token is shown once; only its hash is kept.
        return { status: 201, body: { type: 'invite', id: inviteId, email, role: body.role, token, expires_at: expiresAt } };
      },
    }),

    route<{ token: string; name: string; password: string }>({
      method: 'post',
      path: '/invites/accept',
      permission: 'public',
      body: {
        additionalProperties: false,
        required: ['token', 'name', 'password'],
        properties: {
          token: { type: 'string', minLength: 1, maxLength: 200 },
          name: { type: 'string', minLength: 1, maxLength: 200 },
          password: { type: 'string', minLength: 8, maxLength: 1024 },
        },
      },
      async handle({ body, ctx: rctx, req }) {
        const found = await db('invite_tokens as t')
          .join('invites as i', function () {
            this.on('i.tenant_id', 't.tenant_id').andOn('i.id', 't.invite_id');
          })
          .where('t.token_hash', sha256Hex(body.token))
          .first('i.tenant_id', 'i.id', 'i.email');
        if (!found) throw new NotFound('invite', 'invite_not_found');
        // Password work for the invitee's e-mail is throttled and queued like a sign-in (access/throttle.ts).
        const pass = await throttle.take(found.email, req.ip);
        const existing = await findUserByEmail(db, found.email);
        if (existing && !(await verifyPassword(body.password, existing.password_hash, pass.lane))) {
          throw new Unauthorized('invalid_credentials', 'A user with this e-mail exists; accept with that user\'s password.');
        }
        const passwordHash = existing ? null : await hashPassword(body.password, pass.lane);
        const userId = existing?.id ?? ids.uuid();
        const memberId = ids.uuid();
        const now = clock.now();
        await shell.execute(
          { tenantId: found.tenant_id, now, actor: { type: 'member', id: memberId, member_id: memberId }, requestId: rctx.requestId },
          {
            name: 'AcceptInvite',
            load: async (tx) => {
              const inv = await tx('invites').where({ tenant_id: found.tenant_id, id: found.id }).first();
              return {
                now,
                invite: inv ? { status: inv.status, role: inv.role as Role, expiresAt: inv.expires_at } : null,
                alreadyMember: !!(await tx('members').where({ tenant_id: found.tenant_id, user_id: userId, status: 'active' }).first('id')),
              };
            },
            decide: (s) => decideAccept({ inviteId: found.id, memberId, userId, email: found.email, name: existing?.name ?? body.name }, s),
            beside: async (tx) => {
              if (passwordHash) await insertUser(tx, { id: userId, email: found.email, name: body.name, password_hash: passwordHash, created_at: now });
              await tx('invite_tokens').where({ invite_id: found.id }).del();
            },
          },
        );
        await pass.refund();
        const workspace = await db('workspaces').where({ id: found.tenant_id }).first();
        return {
          status: 201,
          body: { type: 'membership', member: await reload(found.tenant_id, memberId), workspace: { type: 'workspace', id: workspace.id, name: workspace.name } },
        };
      },
    }),

    route<{ role: Role }>({
      method: 'put',
      path: '/members/:id',
      permission: 'members:invite',
      body: { additionalProperties: false, required: ['role'], properties: { role: { type: 'string', enum: [...ROLES] } } },
      async handle(call) {
        const { principal, params, body } = call;
        await shell.execute(commandContext(call, clock), {
          name: 'ChangeMemberRole',
          load: (tx) => membershipState(tx, principal.tenantId, { memberId: principal.memberId, role: principal.role }, params.id!),
          decide: (s) => decideChangeRole({ memberId: params.id!, role: body.role }, s),
        });
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/members/:id',
      permission: 'members:invite',
      async handle(call) {
        const { principal, params } = call;
        await shell.execute(commandContext(call, clock), {
          name: 'RemoveMember',
          load: (tx) => membershipState(tx, principal.tenantId, { memberId: principal.memberId, role: principal.role }, params.id!),
          decide: (s) => decideRemove({ memberId: params.id! }, s),
        });
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),
  ];
}
