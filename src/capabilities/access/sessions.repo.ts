import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { sha256Hex } from '../../platform/crypto/hmac.js';

export const SESSION_COOKIE = 'svc_session';
export const SESSION_TTL_MS = 14 * 24 * 3600_000;
/** minting or rotating a key needs a session minted this recently (spec 5.3.6) */
export const FRESH_SESSION_MS = 15 * 60_000;

export interface SessionRow {
  id: string;
  user_id: string;
  minted_at: Date;
  expires_at: Date;
}

/** Only the token's hash is stored: a leaked sessions table opens no session. */
export async function mintSession(db: Knex, userId: string, now: Date): Promise<{ token: string; row: SessionRow }> {
  const token = randomBytes(32).toString('base64url');
  const row: SessionRow = { id: sha256Hex(token), user_id: userId, minted_at: now, expires_at: new Date(now.getTime() + SESSION_TTL_MS) };
  await db('sessions').insert(row);
  return { token, row };
}

export async function findSession(db: Knex, token: string, now: Date): Promise<SessionRow | undefined> {
  return db('sessions')
    .where({ id: sha256Hex(token) })
    .andWhere('expires_at', '>', now)
    .first();
}

export async function endSession(db: Knex, token: string): Promise<void> {
  await db('sessions')
    .where({ id: sha256Hex(token) })
    .del();
}

/** The cookie's value, or null when absent or not decodable (bad percent-encoding is no session, not an error). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
