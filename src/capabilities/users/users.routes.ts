// Self-service password resets. A reset link goes to the account's mailbox
// through the relay (SMTP_RELAY_URL); the request is answered the same way,
// after the same work, whether or not the address has an account. Setting the
// new password ends the account's sessions and revokes its API keys.
import { Type, type Static } from '@sinclair/typebox';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, ERROR, int, integer, object } from '../../api/schemas.js';
import { NotFound, Unprocessable } from '../../platform/errors.js';
import { mailQueue } from '../../platform/mail/queue.js';
import type { CoreDeps } from '../capability.js';
import { hashPassword } from './passwords.js';
import { consumePasswordReset, newPasswordReset, passwordResetUser } from './password-resets.js';
import { ADDRESS_BUCKET, SigninThrottle, type BucketSpec } from './throttle.js';

/** Per address asked about: three links, then one every ten minutes (a mailbox is not a target for floods). */
export const RESET_BUCKET: BucketSpec = { capacity: 3, refillPerSecond: 1 / 600 };

const ResetRequest = Type.Object({ email: Type.String({ format: 'email', maxLength: 320 }) }, { additionalProperties: false });
const ResetConfirm = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 8, maxLength: 1024 }) },
  { additionalProperties: false },
);

const requestedSchema = object(
  {
    type: constant('password_reset'),
    status: constant('requested'),
    expires_in_minutes: int,
  },
  {
    title: 'PasswordResetRequested',
    description:
      'The same answer whether or not the address has an account: when it has one, a link valid `expires_in_minutes` is on its way to it (only the latest link works).',
  },
);
const doneSchema = object(
  {
    type: constant('password_reset'),
    status: constant('done'),
    api_keys_revoked: integer({
      minimum: 0,
      description: 'How many API keys of the account (in every workspace it is a member of) the reset revoked: re-key the integrations that used them.',
    }),
  },
  { title: 'PasswordResetDone' },
);

/** What other capabilities do when a password was reset (see usersModule). */
export interface UsersHooks {
  /** before the reset is answered; `requestId`: the reset's request */
  passwordReset(deps: CoreDeps, userId: string, requestId: string): Promise<void>;
}

export function usersRoutes(deps: CoreDeps, hooks: UsersHooks): RouteDef[] {
  const { db, clock, config } = deps;
  const owner = deps.ownerDb ?? db; // an account is no workspace's: looked up as the owner role
  // Its own buckets (keyed "reset:<e-mail>"): asking for links must not lock anyone out of signing in.
  const throttle = new SigninThrottle(owner, clock, RESET_BUCKET, ADDRESS_BUCKET);
  const queue = deps.mail ? mailQueue(deps.mail, deps.log) : null;
  const ttlMs = config.passwordResetTtlMinutes * 60_000;

  return [
    route<Static<typeof ResetRequest>>({
      method: 'post',
      path: '/password_resets',
      permission: 'public',
      summary: "Ask for a password-reset link, mailed to the address's account (the same answer whether or not it has one)",
      body: ResetRequest,
      responses: { 202: requestedSchema, 422: ERROR, 429: ERROR },
      async handle({ body, req }) {
        // Decided before anything is looked up: the same answer for every address.
        if (!queue)
          throw new Unprocessable('mail_not_configured', 'This instance sends no mail (the operator set no SMTP_RELAY_URL): ask the operator to reset it.');
        await throttle.take(`reset:${body.email}`, req.ip);
        const reset = await newPasswordReset(owner, body.email, clock.now(), ttlMs);
        // Mailed after the answer, in the background: the answer neither waits for the relay nor says, by taking
        // longer, that there was something to send.
        if (reset) {
          const link = `${config.publicUrl}/reset-password#token=${encodeURIComponent(reset.token)}`;
          queue.push(
            {
              to: body.email.trim().toLowerCase(),
              subject: 'Reset your password',
              headers: { 'Auto-Submitted': 'auto-generated' },
              text: [
                'Someone (we hope you) asked to reset the password of your account.',
                '',
                `Choose a new password within ${config.passwordResetTtlMinutes} minutes: ${link}`,
                `Or with the API: POST /api/password_resets/confirm {"token": "${reset.token}", "password": "<new password>"}`,
                '',
                'The link works once. Setting a new password signs you out everywhere and revokes every API key of your',
                'account, in every workspace (the answer says how many): re-key the integrations that used them.',
                'If you did not ask for this, ignore this message: your password stays as it is.',
              ].join('\n'),
            },
            'password reset',
          );
        }
        return { status: 202, body: { type: 'password_reset', status: 'requested', expires_in_minutes: config.passwordResetTtlMinutes } };
      },
    }),

    // The token travels in the body, not the path: paths are written to request logs, and the token is a credential.
    route<Static<typeof ResetConfirm>>({
      method: 'post',
      path: '/password_resets/confirm',
      permission: 'public',
      summary: 'Set a new password with a reset token (once; every session of the account ends, every API key of it is revoked)',
      body: ResetConfirm,
      responses: { 200: doneSchema, 404: ERROR, 429: ERROR },
      async handle({ body, ctx }) {
        // The token is checked before any password work: a guessed token costs a lookup, never a derivation.
        const user = await passwordResetUser(owner, body.token, clock.now());
        if (!user) throw new NotFound('password reset', 'reset_not_found');
        const hash = await hashPassword(body.password, `reset:${user.id}`, deps.config.passwordHashCost);
        // One transaction: the password, the sessions, the device cookies and the keys (their secrets), all or none.
        const done = await consumePasswordReset(owner, body.token, hash, clock.now());
        if (!done) throw new NotFound('password reset', 'reset_not_found');
        // The keys stopped working with that commit; their workspaces' logs record it now (or, should this fail,
        // the keys capability's worker does), so the answer finds them revoked everywhere.
        await hooks.passwordReset(deps, done.userId, ctx.requestId);
        return { status: 200, body: { type: 'password_reset', status: 'done', api_keys_revoked: done.apiKeysRevoked } };
      },
    }),
  ];
}
