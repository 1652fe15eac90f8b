import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../api/routes.js';
import { arrayOf, constant, dateTime, ERROR, extend, integer, nullable, object, oneOfStrings, str, uuid } from '../../api/schemas.js';
import { ROLES, SCOPES } from '../../api/scopes.js';
import { requestClient } from '../../api/command-context.js';
import type { Principal } from '../../api/context.js';
import type { RequestClient } from '../../commands/command.js';
import { Forbidden, NotFound, Unauthorized } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { CoreDeps } from '../capability.js';
import { burnPasswordCheck, findUserByEmail, revokeDevices, SigninThrottle, TooManyAttempts, verifyPassword } from '../users/index.js';
import { activeMembershipsOfUser, findMember, type MemberRow } from '../members/index.js';
import { findWorkspace, findWorkspaces, renderWorkspace, workspaceSchema } from '../workspaces/index.js';
import { actorOf, AuditTrail, type AuditAction } from '../audit-log/index.js';
import { SESSION_COOKIE, SESSION_TTL_MS, endSession, findSession, mintSession, readCookie } from './sessions.repo.js';
import { DEVICE_COOKIE, DeviceCookies, deviceCookieHeader, secureUnlessPlainLoopback } from './device-cookies.js';
import { ThrottleWatch } from './throttle-watch.js';

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
    availability: oneOfStrings(['online', 'away'], {
      description: 'Your availability for routing (set it with PUT /api/me/availability): `online` members get conversations of their teams, `away` none.',
    }),
    capacity: nullable(integer({ minimum: 0, description: 'The most open conversations assigned to you that routing gives you; null: no limit.' })),
  },
  { title: 'Me', optional: ['api_key_id'] },
);

export function accessRoutes(deps: CoreDeps): RouteDef[] {
  const { db, clock } = deps;
  const throttle = new SigninThrottle(db, clock);
  const devices = DeviceCookies.fromConfig(deps.config);
  const trail = new AuditTrail(deps);
  const watch = new ThrottleWatch({ db, clock, log: deps.log, trail, observer: deps.signinObserver });
  /** A member's own sign-in activity, in each workspace they are an active member of. */
  const signInActivity = (action: AuditAction, memberships: readonly MemberRow[], self: boolean, client: RequestClient, requestId: string) =>
    trail.record(
      memberships.map((m) => ({
        tenantId: m.tenant_id,
        action,
        aggregate: { type: 'member', id: m.id },
        // a failed attempt is nobody's until proven: the service's, about the member it named
        actor: self ? { type: 'member' as const, id: m.id, member_id: m.id } : { type: 'system' as const, id: 'sign_in' },
        subject: { kind: 'member' as const, id: m.id },
        client,
        requestId,
      })),
    );
  /** Revokes the devices of the user behind `member`, as `principal`: the audit entry in the principal's workspace. */
  const revokeDevicesOf = async (principal: Principal, member: { id: string; user_id: string }, client: RequestClient, requestId: string) => {
    await revokeDevices(db, member.user_id, clock.now());
    await trail.record([
      { tenantId: principal.tenantId, action: 'devices.revoked', aggregate: { type: 'member', id: member.id }, actor: actorOf(principal), client, requestId },
    ]);
  };
  return [
    route<Static<typeof Credentials>>({
      method: 'post',
      path: '/session',
      permission: 'public',
      summary: 'Sign in (sets the session cookie)',
      responses: { 201: sessionSchema, 401: ERROR, 429: ERROR },
      body: Credentials,
      async handle({ body, req, ctx }) {
        const client = requestClient(req);
        // Throttled before anything else (429 too_many_attempts): per device cookie when the request carries a
        // valid one for this e-mail, else per account and address; see users/throttle.ts and device-cookies.ts.
        const device = await devices.verify(readCookie(req.get('cookie'), DEVICE_COOKIE), body.email, clock.now());
        const pass = await throttle.take(body.email, req.ip, device ?? undefined).catch((e: unknown) => {
          // Operators and the member's workspaces see the burst (throttle-watch.ts); the 429 does not wait for it.
          if (e instanceof TooManyAttempts) watch.refused(body.email, client, e.refusedBy, ctx.requestId);
          throw e;
        });
        const user = await findUserByEmail(db, body.email);
        // Unknown e-mail and wrong password take the same time and give the same answer.
        const ok = user
          ? await verifyPassword(body.password, user.password_hash, pass.lane)
          : await burnPasswordCheck(body.password, pass.lane, deps.config.passwordHashCost);
        if (!user || !ok) {
          // A member's workspaces see the failure, recorded after the answer (it must not take longer for a known
          // e-mail). An e-mail that is no user's is no workspace's member: recorded nowhere.
          if (user)
            void activeMembershipsOfUser(db, user.id)
              .then((ms) => signInActivity('session.failed', ms, false, client, ctx.requestId))
              .catch((e: unknown) => deps.log.warn({ err: e }, 'recording a failed sign-in failed'));
          throw new Unauthorized('invalid_credentials', 'The e-mail or password is wrong.');
        }
        await pass.refund();
        // Rotated on use: a new device cookie, and the one it replaces no longer counts as a device.
        if (device && pass.device) await throttle.retire(device.id, device.expiresAt);
        const deviceValue = await devices.issue(user.email, clock.now());
        const { token, row } = await mintSession(db, user.id, clock.now());
        const memberships = await activeMembershipsOfUser(db, user.id);
        await signInActivity('session.created', memberships, true, client, ctx.requestId);
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
          } satisfies Static<typeof sessionSchema>,
        };
      },
    }),

    route({
      method: 'delete',
      path: '/session',
      permission: 'public',
      summary: 'Sign out (the device cookie stays: see DELETE /api/me/devices)',
      responses: { 204: null },
      async handle({ req, ctx }) {
        const token = readCookie(req.get('cookie'), SESSION_COOKIE);
        const session = token ? await findSession(db, token, clock.now()) : undefined;
        if (token) await endSession(db, token);
        if (session) await signInActivity('session.deleted', await activeMembershipsOfUser(db, session.user_id), true, requestClient(req), ctx.requestId);
        return { status: 204, headers: { 'Set-Cookie': cookie('', 0, req.secure) } };
      },
    }),

    route({
      method: 'delete',
      path: '/me/devices',
      permission: 'authenticated',
      summary: 'Forget your devices: every device cookie issued to you so far stops easing your sign-ins',
      responses: { 204: null },
      async handle({ principal, req, ctx }) {
        await revokeDevicesOf(principal, { id: principal.memberId, user_id: principal.userId }, requestClient(req), ctx.requestId);
        return { status: 204 };
      },
    }),

    route({
      method: 'delete',
      path: '/members/:id/devices',
      permission: 'members:invite',
      summary: "Forget a member's devices (owners only): every device cookie issued to them so far stops easing their sign-ins",
      responses: { 204: null },
      async handle({ principal, params, req, ctx }) {
        const id = params.id;
        // The user is global: revoking strips their lockout protection in every workspace they are in, so an admin
        // (who may not even see those workspaces) may not; an owner may, and anyone may for themselves.
        if (principal.role !== 'owner' && id.toLowerCase() !== principal.memberId)
          throw new Forbidden('owner_required', "Only an owner can revoke another member's devices (DELETE /api/me/devices revokes your own).");
        const member = isUuid(id) ? await findMember(db, principal.tenantId, id.toLowerCase()) : undefined;
        if (!member || member.status !== 'active') throw new NotFound('member');
        await revokeDevicesOf(principal, member, requestClient(req), ctx.requestId);
        return { status: 204 };
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
            // The principal is an active member, and only a removed member is ever erased (its e-mail and name null).
            user: { type: 'user', id: principal.userId, email: member!.email!, name: member!.name! },
            workspace: renderWorkspace(workspace!),
            member_id: principal.memberId,
            role: principal.role,
            scopes: principal.scopes,
            via: principal.via,
            ...(principal.keyId ? { api_key_id: principal.keyId } : {}),
            availability: member!.availability,
            capacity: member!.capacity,
          } satisfies Static<typeof meSchema>,
        };
      },
    }),
  ];
}
