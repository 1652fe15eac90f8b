import type { Knex } from 'knex';

// Self-service password resets (issue 35, item 3). A reset is a one-time token
// mailed to the account's address; only its SHA-256 is kept, with the user it
// resets and when it stops working. The row names no e-mail, and it goes with
// its user (ON DELETE CASCADE): erasing a person's account reaches it too.
//
// consume_password_reset takes a token once: it sets the new password, ends the
// user's sessions, voids their device cookies (a squatter who held the account
// keeps nothing of it) and drops every reset of the user, in one statement. It
// runs as its owner because sessions belong to the access capability: the users
// capability asks this one question of them, as forget_user_if_unattached does.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE IF NOT EXISTS password_resets (
      token_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS password_resets_by_user ON password_resets (user_id);
    CREATE INDEX IF NOT EXISTS password_resets_by_expiry ON password_resets (expires_at);

    CREATE OR REPLACE FUNCTION consume_password_reset(p_token_hash text, p_password_hash text, p_now timestamptz) RETURNS uuid
    LANGUAGE sql SECURITY DEFINER SET search_path = public AS $$
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
    $$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS consume_password_reset(text, text, timestamptz); DROP TABLE IF EXISTS password_resets;');
}
