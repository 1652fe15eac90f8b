import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../api/routes.js';
import { arrayOf, constant, dateTime, ERROR, extend, object, oneOfStrings, str, uuid } from '../../api/schemas.js';
import { ROLES, SCOPES } from '../../api/scopes.js';
import { Unauthorized } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { burnPasswordCheck, findUserByEmail, SigninThrottle, verifyPassword } from '../users/index.js';
import { activeMembershipsOfUser, findMember } from '../members/index.js';
import { findWorkspace, findWorkspaces, renderWorkspace, workspaceSchema } from '../workspaces/index.js';
import { SESSION_COOKIE, SESSION_TTL_MS, endSession, mintSession, readCookie } from './sessions.repo.js';
import { DEVICE_COOKIE, DeviceCookies, deviceCookieHeader, secureUnlessPlainLoopback } from './device-cookies.js';

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

const Credentials = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);

const userSchema = object({ type: constant('user'), id: uuid, email: str(), name: str() }, { title: 'User' });

const sessionSchema = object(
  {
    type: constant('session'),
    user: userSchema,
    minted_at: dateTime,
    expires_at: dateTime,
    workspaces: arrayOf(extend(workspaceSchema, { role: oneOfStrings(ROLES), member_id: uuid }, { title: 'SessionWorkspace' })),
  },
  {
    title: 'Session',
    description:
      'The signed-in user and their workspaces; the `svc_session` cookie is set with it, and a new `svc_device` cookie (the device cookie: later sign-ins from this browser are throttled on their own, see the API guide).',
  },
);

const meSchema = object(
  {
    type: constant('me'),
    user: userSchema,
    workspace: workspaceSchema,
    member_id: uuid,
    role: oneOfStrings(ROLES),
    scopes: arrayOf(oneOfStrings(SCOPES), { description: "Effective scopes: the key's ∩ what the role allows now." }),
    via: oneOfStrings(['api_key', 'session']),
    api_key_id: uuid,
  },
  { title: 'Me', optional: ['api_key_id'] },
);

export function accessRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock } = deps;
  const throttle = new SigninThrottle(db, clock);
  const devices = DeviceCookies.fromConfig(deps.config);
  return [
    route<Static<typeof Credentials>>({
      method: 'post',
      path: '/session',
      permission: 'public',
      summary: 'Sign in (sets the session cookie)',
      responses: { 201: sessionSchema, 401: ERROR, 429: ERROR },
      body: Credentials,
      async handle({ body, req }) {
        // Throttled before anything else (429 too_many_attempts): per device cookie when the request carries a
        // valid one for this e-mail, else per account and address; see users/throttle.ts and device-cookies.ts.
        const device = await devices.verify(readCookie(req.get('cookie'), DEVICE_COOKIE), body.email, clock.now());
        const pass = await throttle.take(body.email, req.ip, device?.id);
        const user = await findUserByEmail(db, body.email);
        // Unknown e-mail and wrong password take the same time and give the same answer.
        const ok = user ? await verifyPassword(body.password, user.password_hash, pass.lane) : await burnPasswordCheck(body.password, pass.lane);
        if (!user || !ok) throw new Unauthorized('invalid_credentials', 'The e-mail or password is wrong.');
        await pass.refund();
        // Rotated on use: a new device cookie, and the one it replaces no longer counts as a device.
        if (device && pass.device) await throttle.retire(device.id, device.expiresAt);
        const deviceValue = await devices.issue(user.email, clock.now());
        const { token, row } = await mintSession(db, user.id, clock.now());
        const memberships = await activeMembershipsOfUser(db, user.id);
        const workspaces = await findWorkspaces(
          db,
          memberships.map((m) => m.tenant_id),
        );
        // Two cookies, so two Set-Cookie fields (an answer's headers hold one value each): the session first.
        req.res!.append('Set-Cookie', [
          cookie(token, SESSION_TTL_MS / 1000, req.secure),
          deviceCookieHeader(deviceValue, `${req.baseUrl}/session`, secureUnlessPlainLoopback(req.secure, req.socket.localAddress)),
        ]);
        return {
          status: 201,
          body: {
            type: 'session',
            user: { type: 'user', id: user.id, email: user.email, name: user.name },
            minted_at: row.minted_at.toISOString(),
            expires_at: row.expires_at.toISOString(),
            workspaces: workspaces.map((w) => {
              const m = memberships.find((x) => x.tenant_id === w.id)!;
              return { ...renderWorkspace(w), role: m.role, member_id: m.id };
            }),
          },
        };
      },
    }),

    route({
      method: 'delete',
      path: '/session',
      permission: 'public',
      summary: 'Sign out',
      responses: { 204: null },
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
      summary: 'Who is calling',
      responses: { 200: meSchema },
      async handle({ principal }) {
        const [member, workspace] = await Promise.all([findMember(db, principal.tenantId, principal.memberId), findWorkspace(db, principal.tenantId)]);
        return {
          status: 200,
          body: {
            type: 'me',
            user: { type: 'user', id: principal.userId, email: member!.email, name: member!.name },
            workspace: renderWorkspace(workspace!),
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
