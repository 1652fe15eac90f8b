import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Two findings of the security review of 2026-11-28.
//
// 10. A password reset left the account's API keys working: someone who stole the password and minted keys kept
// access after the owner reset it, though the mail says "signs you out everywhere". consume_password_reset now also
// ends every active key minted by any of the user's memberships, in the reset's own transaction: their secret
// hashes are deleted (a key whose hash is gone verifies nowhere, so the keys stop working when the reset commits),
// every process is told to drop the workspace's cached principals (NOTIFY auth_changed, the channel the
// authenticator listens on; sent at commit, never before), and each key gets a row in key_revocations_due. A key's
// revocation is an event of its workspace's log (`api_key.revoked`), and a workspace's log is written only by its
// commands, each in a transaction of its own: the keys capability appends those events right after the reset
// (actor: the reset) and drops the rows, and its worker finishes what a crash in between left (keys.reset.ts). The
// rows hold ids only.
//
// 15. A reset request for an unknown address wrote nothing, one for a known address a row: the known address's
// answer waited for a WAL flush and took longer. An unknown address now gets a decoy row too, with no user and a
// random token's hash that nobody is told, swept at its expiry like any other.
//
// The function runs as its owner, as before: sessions belong to access, keys to the keys capability; the users
// capability asks this one question of them.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE password_resets ALTER COLUMN user_id DROP NOT NULL;

    CREATE TABLE IF NOT EXISTS key_revocations_due (
      tenant_id uuid NOT NULL,
      key_id uuid NOT NULL,
      user_id uuid NOT NULL,
      reset_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, key_id)
    );
    CREATE INDEX IF NOT EXISTS key_revocations_due_by_user ON key_revocations_due (user_id);
    CREATE INDEX IF NOT EXISTS key_revocations_due_by_reset ON key_revocations_due (reset_at);
  `);
  await tenantWall(knex, 'key_revocations_due');
  await knex.raw(`
    DROP FUNCTION IF EXISTS consume_password_reset(text, text, timestamptz);
    CREATE FUNCTION consume_password_reset(p_token_hash text, p_password_hash text, p_now timestamptz)
      RETURNS TABLE (reset_user_id uuid, api_keys_revoked integer)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
    DECLARE
      v_user uuid;
      v_tenants uuid[];
      v_keys uuid[];
    BEGIN
      -- A decoy (no user), an unknown, used or expired token: nothing happens.
      DELETE FROM password_resets r WHERE r.token_hash = p_token_hash AND r.expires_at > p_now RETURNING r.user_id INTO v_user;
      IF v_user IS NULL THEN RETURN; END IF;
      UPDATE users u SET password_hash = p_password_hash, devices_revoked_at = p_now WHERE u.id = v_user;
      IF NOT FOUND THEN RETURN; END IF;
      DELETE FROM sessions s WHERE s.user_id = v_user;
      DELETE FROM password_resets r WHERE r.user_id = v_user;

      -- Every membership's, removed ones too: a key outlives nothing of its account.
      SELECT coalesce(array_agg(k.tenant_id), '{}'), coalesce(array_agg(k.id), '{}') INTO v_tenants, v_keys
        FROM api_keys k JOIN members m ON m.tenant_id = k.tenant_id AND m.id = k.member_id
       WHERE m.user_id = v_user AND k.status = 'active';
      DELETE FROM api_key_secrets s USING unnest(v_tenants, v_keys) AS x(tenant_id, key_id)
       WHERE s.tenant_id = x.tenant_id AND s.key_id = x.key_id;
      INSERT INTO key_revocations_due (tenant_id, key_id, user_id, reset_at)
        SELECT x.tenant_id, x.key_id, v_user, p_now FROM unnest(v_tenants, v_keys) AS x(tenant_id, key_id)
        ON CONFLICT (tenant_id, key_id) DO NOTHING;
      PERFORM pg_notify('auth_changed', d.tenant_id::text) FROM (SELECT DISTINCT t AS tenant_id FROM unnest(v_tenants) AS t) d;

      RETURN QUERY SELECT v_user, cardinality(v_keys);
    END
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP FUNCTION IF EXISTS consume_password_reset(text, text, timestamptz);
    CREATE FUNCTION consume_password_reset(p_token_hash text, p_password_hash text, p_now timestamptz) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER SET search_path = public AS $fn$
      WITH taken AS (
        DELETE FROM password_resets WHERE token_hash = p_token_hash AND expires_at > p_now RETURNING user_id
      ), changed AS (
        UPDATE users SET password_hash = p_password_hash, devices_revoked_at = p_now
         WHERE id = (SELECT user_id FROM taken) RETURNING id
      ), ended AS (
        DELETE FROM sessions WHERE user_id = (SELECT id FROM changed) RETURNING 1
      ), others AS (
        DELETE FROM password_resets WHERE user_id = (SELECT id FROM changed) RETURNING 1
      )
      SELECT id FROM changed
    $fn$;
    DROP TABLE IF EXISTS key_revocations_due;
    DELETE FROM password_resets WHERE user_id IS NULL;
    ALTER TABLE password_resets ALTER COLUMN user_id SET NOT NULL;
  `);
}
