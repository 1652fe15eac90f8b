// Users: sign-in identities (e-mail, name, password hash), kept beside the log,
// and what protects signing in (throttling per account and address, or per device cookie; fair hashing).
// No events and no routes of their own: members and access build on them.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';

export { findUserByEmail, forgetUserIfUnattached, insertUser, normalizeEmail, revokeDevices, type UserRow } from './users.repo.js';
export { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
export { SigninThrottle, TooManyAttempts, type BucketKind, type PresentedDevice } from './throttle.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  email_taken: { status: 409, when: 'Creating a user whose e-mail is taken.' },
  too_many_attempts: { status: 429, when: 'Sign-in throttled; `Retry-After` says when to try again.' },
});

export const usersModule = defineModule({ name: 'users', errors, tables: ['users', 'signin_throttle'], events: [] });
