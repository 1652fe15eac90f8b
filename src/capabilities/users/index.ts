// Users: sign-in identities (e-mail, name, password hash), kept beside the log,
// and what protects signing in (throttling per account and address, or per device cookie; fair hashing).
// No events: an account is no workspace's. Its routes are the self-service password reset;
// members and access build on the rest.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { usersRoutes, type UsersHooks } from './users.routes.js';

export { findUserByEmail, forgetUserIfUnattached, insertUser, normalizeEmail, revokeDevices, type UserRow } from './users.repo.js';
export type { UsersHooks } from './users.routes.js';
export { burnPasswordCheck, DEFAULT_HASH_COST, hashPassword, verifyPassword } from './passwords.js';
export { SigninThrottle, TooManyAttempts, type BucketKind, type BucketSpec, type PresentedDevice } from './throttle.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  email_taken: { status: 409, when: 'Creating a user whose e-mail is taken.' },
  too_many_attempts: { status: 429, when: 'Sign-in (or asking for password-reset links) throttled; `Retry-After` says when to try again.' },
  mail_not_configured: { status: 422, when: 'Asking for a password reset on an instance that sends no mail (no SMTP_RELAY_URL), whatever the address.' },
  reset_not_found: { status: 404, when: 'A password-reset token that is unknown, used or expired.' },
});

/**
 * `hooks.passwordReset`: what other capabilities do when an account's password was reset, before the reset is
 * answered (the keys capability records in its workspaces' logs the keys the reset revoked). Handed in by the
 * capability list: keys imports users (the operator CLI finds a member's account by e-mail).
 */
export const usersModule = (hooks: UsersHooks) =>
  defineModule({ name: 'users', errors, tables: ['users', 'signin_throttle', 'password_resets'], events: [], routes: (deps) => usersRoutes(deps, hooks) });
