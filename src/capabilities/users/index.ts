// Users: sign-in identities (e-mail, name, password hash), kept beside the log,
// and what protects signing in (per-account and per-address throttling, fair hashing).
// No events and no routes of their own: members and access build on them.
import { defineModule } from '../capability.js';

export { findUserByEmail, forgetUserIfUnattached, insertUser, normalizeEmail, type UserRow } from './users.repo.js';
export { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
export { SigninThrottle } from './throttle.js';

export const usersModule = defineModule({ name: 'users', tables: ['users', 'signin_throttle'], events: [] });
