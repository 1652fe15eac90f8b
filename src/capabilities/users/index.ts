// Users: sign-in identities (e-mail, name, password hash), kept beside the log.
// No events and no routes of their own: members and access build on them.
import { defineModule } from '../capability.js';

export { findUserByEmail, insertUser, normalizeEmail, type UserRow } from './users.repo.js';
export { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';

export const usersModule = defineModule({ name: 'users', tables: ['users'], events: [] });
