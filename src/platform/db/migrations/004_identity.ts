import type { Knex } from 'knex';

// Identity. `users`, `sessions`, `api_key_secrets` and `invite_tokens` are
// primary data kept beside the log (credentials never enter an event); the
// rest are read models rebuilt from events.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE users (
      id uuid PRIMARY KEY,
      email text NOT NULL,
      name text NOT NULL,
      password_hash text NOT NULL,
      created_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX users_email ON users (lower(email));

    CREATE TABLE sessions (
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      minted_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX sessions_user ON sessions (user_id);

    CREATE TABLE api_key_secrets (
      key_id uuid PRIMARY KEY,
      tenant_id uuid NOT NULL,
      secret_hash text NOT NULL UNIQUE
    );

    CREATE TABLE invite_tokens (
      invite_id uuid PRIMARY KEY,
      tenant_id uuid NOT NULL,
      token_hash text NOT NULL UNIQUE
    );

    CREATE TABLE workspaces (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL
    );

    CREATE TABLE members (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      user_id uuid NOT NULL,
      email text NOT NULL,
      name text NOT NULL,
      role text NOT NULL,
      status text NOT NULL,
      joined_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX members_active_user ON members (tenant_id, user_id) WHERE status = 'active';
    CREATE INDEX members_by_user ON members (user_id);
    CREATE INDEX members_by_joined ON members (tenant_id, joined_at, id);

    CREATE TABLE invites (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      email text NOT NULL,
      role text NOT NULL,
      status text NOT NULL,
      invited_by uuid NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );

    CREATE TABLE api_keys (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      member_id uuid NOT NULL,
      name text NOT NULL,
      scopes text[] NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL,
      rotated_at timestamptz,
      revoked_at timestamptz,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX api_keys_by_created ON api_keys (tenant_id, created_at, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS api_keys, invites, members, workspaces, invite_tokens, api_key_secrets, sessions, users');
}
