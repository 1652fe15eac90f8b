import type { Knex } from 'knex';
import { Conflict } from '../../platform/errors.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: Date;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function findUserByEmail(db: Knex | Knex.Transaction, email: string): Promise<UserRow | undefined> {
  return db('users').whereRaw('lower(email) = ?', [normalizeEmail(email)]).first();
}

export async function insertUser(db: Knex | Knex.Transaction, user: UserRow): Promise<void> {
  try {
    await db('users').insert({ ...user, email: normalizeEmail(user.email) });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new Conflict('email_taken', 'A user with this e-mail was created at the same time; retry.');
    throw e;
  }
}

export interface WorkspaceMembership {
  id: string;
  name: string;
  role: string;
  member_id: string;
}

export async function workspacesOf(db: Knex, userId: string): Promise<WorkspaceMembership[]> {
  return db('members as m')
    .join('workspaces as w', 'w.id', 'm.tenant_id')
    .where({ 'm.user_id': userId, 'm.status': 'active' })
    .orderBy('w.created_at')
    .select('w.id', 'w.name', 'm.role', 'm.id as member_id');
}
