import type { Knex } from 'knex';

// Channels, contacts, conversations and their parts.
// `channel_secrets` is kept beside the log (secrets never enter an event);
// everything else is a read model. Inbound dedup (one conversation per thread
// id, one part per message id) needs no table of its own: commands decide
// under the tenant's append lock (or its expected seq), so the read model they
// consult is exactly current.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE channel_secrets (
      tenant_id uuid NOT NULL,
      channel_id uuid NOT NULL,
      id uuid NOT NULL,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL,
      -- null while current; set on rotation to the end of the old secret's grace period
      valid_until timestamptz,
      PRIMARY KEY (tenant_id, channel_id, id)
    );
    CREATE UNIQUE INDEX channel_secrets_current ON channel_secrets (tenant_id, channel_id) WHERE valid_until IS NULL;

    CREATE TABLE channels (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      kind text NOT NULL,
      name text NOT NULL,
      source text NOT NULL,
      default_team_id text,
      webhook_url text,
      secret_rotated_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX channels_source ON channels (tenant_id, kind, source);
    CREATE INDEX channels_by_created ON channels (tenant_id, created_at, id);
    -- inbound posts are looked up by channel id alone, before the tenant is known
    CREATE UNIQUE INDEX channels_id ON channels (id);

    CREATE TABLE contacts (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      external_id text,
      channel_id uuid,
      email text,
      name text,
      phone text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX contacts_external ON contacts (tenant_id, external_id) WHERE external_id IS NOT NULL;
    CREATE INDEX contacts_email ON contacts (tenant_id, lower(email));
    CREATE INDEX contacts_by_created ON contacts (tenant_id, created_at, id);

    CREATE TABLE conversations (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      channel_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      external_id text,
      subject text,
      state text NOT NULL,
      snoozed_until timestamptz,
      assignee_id uuid,
      team_id text,
      parts_count int NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      last_part_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX conversations_thread ON conversations (tenant_id, channel_id, external_id) WHERE external_id IS NOT NULL;
    CREATE INDEX conversations_by_created ON conversations (tenant_id, created_at, id);
    CREATE INDEX conversations_by_updated ON conversations (tenant_id, updated_at, id);
    CREATE INDEX conversations_state ON conversations (tenant_id, state, assignee_id);
    CREATE INDEX conversations_snoozed ON conversations (snoozed_until) WHERE state = 'snoozed';

    CREATE TABLE conversation_parts (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      seq bigint NOT NULL,
      part_type text NOT NULL,
      body text,
      author_type text NOT NULL,
      author_id text NOT NULL,
      external_id text,
      attachments jsonb NOT NULL DEFAULT '[]',
      details jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX conversation_parts_by_conversation ON conversation_parts (tenant_id, conversation_id, seq);

    CREATE UNIQUE INDEX conversation_parts_message ON conversation_parts (tenant_id, conversation_id, external_id) WHERE external_id IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS conversation_parts, conversations, contacts, channels, channel_secrets');
}
