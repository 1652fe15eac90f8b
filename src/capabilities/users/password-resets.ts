// Self-service password resets, beside the log: a person's account is not a
// workspace's, so nothing here is an event (the keys a reset revokes are, in
// their workspaces: the keys capability records them). Only a token's SHA-256
// is stored, with the user it resets and when it stops working (migration 034).
import { randomBytes } from 'node:crypto';
import type { Db } from '../../commands/command.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { normalizeEmail } from './users.repo.js';

/**
 * A new reset token for the account with this e-mail, replacing any earlier one of it (the latest link is the one
 * that works), and expired resets of anyone swept on the way. The same statement and the same writes whether or not
 * the address has an account: an address without one gets a decoy row (no user, the hash of a token nobody is
 * told), swept at its expiry like the rest. Before migration 048 only a known address wrote a row: its commit
 * waited for a WAL flush, and its answer took measurably longer. Returns the token only when there is an account to
 * mail it to.
 */
export async function newPasswordReset(db: Db, email: string, now: Date, ttlMs: number): Promise<{ token: string; userId: string } | null> {
  const token = randomBytes(32).toString('base64url');
  const res = await db.raw(
    `WITH u AS (SELECT id FROM users WHERE lower(email) = ?),
          swept AS (DELETE FROM password_resets WHERE expires_at <= ? OR user_id IN (SELECT id FROM u))
     INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
     SELECT ?, (SELECT id FROM u), ?, ?
     RETURNING user_id`,
    [normalizeEmail(email), now, sha256Hex(token), now, new Date(now.getTime() + ttlMs)],
  );
  const row = res.rows[0] as { user_id: string | null } | undefined;
  return row?.user_id ? { token, userId: row.user_id } : null;
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
 * Takes the token once and sets the new password; the user's sessions end, their device cookies stop counting and
 * every active API key of their memberships stops working (migrations 034, 048). Null when the token no longer
 * works (used by a concurrent request, or expired meanwhile). `apiKeysRevoked`: how many keys the reset revoked.
 */
export async function consumePasswordReset(db: Db, token: string, passwordHash: string, now: Date): Promise<{ userId: string; apiKeysRevoked: number } | null> {
  const res = await db.raw('SELECT reset_user_id, api_keys_revoked FROM consume_password_reset(?, ?, ?)', [sha256Hex(token), passwordHash, now]);
  const row = res.rows[0] as { reset_user_id: string; api_keys_revoked: number } | undefined;
  return row ? { userId: row.reset_user_id, apiKeysRevoked: row.api_keys_revoked } : null;
}
