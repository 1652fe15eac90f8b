// Self-service password resets, beside the log: a person's account is not a
// workspace's, so nothing here is an event. Only a token's SHA-256 is stored,
// with the user it resets and when it stops working (migration 034).
import { randomBytes } from 'node:crypto';
import type { Db } from '../../commands/command.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { normalizeEmail } from './users.repo.js';

/**
 * A new reset token for the account with this e-mail, replacing any earlier one of it (the latest link is the one
 * that works), and expired resets of anyone swept on the way. One statement whether or not the address has an
 * account: the same work either way, and nothing is stored for an address without one. Returns the token only when
 * there is an account to mail it to.
 */
export async function newPasswordReset(db: Db, email: string, now: Date, ttlMs: number): Promise<{ token: string; userId: string } | null> {
  const token = randomBytes(32).toString('base64url');
  const res = await db.raw(
    `WITH u AS (SELECT id FROM users WHERE lower(email) = ?),
          swept AS (DELETE FROM password_resets WHERE expires_at <= ? OR user_id IN (SELECT id FROM u))
     INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
     SELECT ?, id, ?, ? FROM u
     RETURNING user_id`,
    [normalizeEmail(email), now, sha256Hex(token), now, new Date(now.getTime() + ttlMs)],
  );
  const row = res.rows[0] as { user_id: string } | undefined;
  return row ? { token, userId: row.user_id } : null;
}

/** The user a reset token resets, while it works (unknown, used or expired: null). */
export async function passwordResetUser(db: Db, token: string, now: Date): Promise<{ id: string; email: string } | null> {
  const res = await db.raw('SELECT u.id, u.email FROM password_resets r JOIN users u ON u.id = r.user_id WHERE r.token_hash = ? AND r.expires_at > ?', [
    sha256Hex(token),
    now,
  ]);
  return (res.rows[0] as { id: string; email: string } | undefined) ?? null;
}

/**
 * Takes the token once and sets the new password; the user's sessions end and their device cookies stop counting
 * (migration 034). Null when the token no longer works (used by a concurrent request, or expired meanwhile).
 */
export async function consumePasswordReset(db: Db, token: string, passwordHash: string, now: Date): Promise<string | null> {
  const res = await db.raw('SELECT consume_password_reset(?, ?, ?) AS user_id', [sha256Hex(token), passwordHash, now]);
  return (res.rows[0]?.user_id as string | null) ?? null;
}
