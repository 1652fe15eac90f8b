// People who can sign in. Users live beside the log: a password hash never goes
// into an event; what the log knows of a person is their membership (members).
import type { Db } from '../../commands/command.js';
import { Conflict } from '../../platform/errors.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Date;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db('users')
    .whereRaw('lower(email) = ?', [normalizeEmail(email)])
    .first();
}

export async function insertUser(db: Db, user: UserRow): Promise<void> {
  try {
    await db('users').insert({ ...user, email: normalizeEmail(user.email) });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new Conflict('email_taken', 'A user with this e-mail was created at the same time; retry.');
    throw e;
  }
}

/**
 * Deletes a person's sign-in account (and, by cascade, their sessions) once they
 * are an active member of no workspace: what erasing a removed member leaves of
 * them. Through a function that may look across workspaces (row-level security
 * hides other tenants' memberships from a request); see migration 019.
 */
export async function forgetUserIfUnattached(db: Db, userId: string): Promise<boolean> {
  const res = await db.raw('SELECT forget_user_if_unattached(?::uuid) AS gone', [userId]);
  return res.rows[0]?.gone === true;
}

/**
 * Revokes every device cookie issued to the user so far (access/device-cookies.ts): from now on they give
 * no advantage at sign-in (users/throttle.ts). Never moves the mark back. False when there is no such user.
 */
export async function revokeDevices(db: Db, userId: string, at: Date): Promise<boolean> {
  const n = await db('users')
    .where({ id: userId })
    .update({ devices_revoked_at: db.raw('greatest(devices_revoked_at, ?::timestamptz)', [at]) });
  return n > 0;
}
