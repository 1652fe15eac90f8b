import { route, type RouteDef } from '../../api/routes.js';
import { Unauthorized } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { burnPasswordCheck, verifyPassword } from './passwords.js';
import { SESSION_COOKIE, SESSION_TTL_MS, endSession, mintSession, readCookie } from './sessions.repo.js';
import { SigninThrottle } from './throttle.js';
import { findUserByEmail, workspacesOf } from './users.repo.js';

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

export function sessionRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock } = deps;
  const throttle = new SigninThrottle(db, clock);
  return [
    route<{ email: string; password: string }>({
      method: 'post',
      path: '/session',
      permission: 'public',
      body: {
        additionalProperties: false,
        required: ['email', 'password'],
        properties: { email: { type: 'string', minLength: 1, maxLength: 320 }, password: { type: 'string', minLength: 1, maxLength: 1024 } },
      },
      async handle({ body, req }) {
        // Throttled per account and address before anything else (429 too_many_attempts); see throttle.ts.
        const pass = await throttle.take(body.email, req.ip);
        const user = await findUserByEmail(db, body.email);
        // Unknown e-mail and wrong password take the same time and give the same answer.
        const ok = user ? await verifyPassword(body.password, user.password_hash, pass.lane) : await burnPasswordCheck(body.password, pass.lane);
        if (!user || !ok) throw new Unauthorized('invalid_credentials', 'The e-mail or password is wrong.');
        await pass.refund();
        const { token, row } = await mintSession(db, user.id, clock.now());
        const workspaces = await workspacesOf(db, user.id);
        return {
          status: 201,
          headers: { 'Set-Cookie': cookie(token, SESSION_TTL_MS / 1000, req.secure) },
          body: {
            type: 'session',
            user: { type: 'user', id: user.id, email: user.email, name: user.name },
            minted_at: row.minted_at.toISOString(),
            expires_at: row.expires_at.toISOString(),
            workspaces: workspaces.map((w) => ({ type: 'workspace', id: w.id, name: w.name, role: w.role, member_id: w.member_id })),
          },
        };
      },
    }),

    route({
      method: 'delete',
      path: '/session',
      permission: 'public',
      async handle({ req }) {
        const token = readCookie(req.get('cookie'), SESSION_COOKIE);
        if (token) await endSession(db, token);
        return { status: 204, headers: { 'Set-Cookie': cookie('', 0, req.secure) } };
      },
    }),

    route({
      method: 'get',
      path: '/me',
      permission: 'authenticated',
      async handle({ principal }) {
        const member = await db('members').where({ tenant_id: principal.tenantId, id: principal.memberId }).first();
        const workspace = await db('workspaces').where({ id: principal.tenantId }).first();
        return {
          status: 200,
          body: {
            type: 'me',
            user: { type: 'user', id: principal.userId, email: member.email, name: member.name },
            workspace: { type: 'workspace', id: workspace.id, name: workspace.name },
            member_id: principal.memberId,
            role: principal.role,
            scopes: principal.scopes,
            via: principal.via,
            ...(principal.keyId ? { api_key_id: principal.keyId } : {}),
          },
        };
      },
    }),
  ];
}
