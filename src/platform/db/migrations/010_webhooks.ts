import type { Knex } from 'knex';

// Webhooks: endpoints (a read model), their sealed secrets (beside the log),
// the dispatcher's own view of endpoints and channels (moved with its
// checkpoint, so routing reflects the log at the event being routed, not the
// present), and the delivery outbox with every attempt.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE webhook_endpoints (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      url text NOT NULL,
      event_names text[] NOT NULL,
      description text NOT NULL,
      enabled boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX webhook_endpoints_by_created ON webhook_endpoints (tenant_id, created_at, id);

    CREATE TABLE webhook_endpoint_secrets (
      tenant_id uuid NOT NULL,
      endpoint_id uuid NOT NULL,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, endpoint_id)
    );

    -- The dispatcher's view: written only by the dispatcher, in the
    -- transaction that moves its checkpoint (subscription_checkpoints).
    CREATE TABLE dispatch_endpoints (
      tenant_id uuid NOT NULL,
      endpoint_id uuid NOT NULL,
      url text NOT NULL,
      event_names text[] NOT NULL,
      enabled boolean NOT NULL,
      PRIMARY KEY (tenant_id, endpoint_id)
    );
    CREATE TABLE dispatch_channels (
      tenant_id uuid NOT NULL,
      channel_id uuid NOT NULL,
      webhook_url text,
      PRIMARY KEY (tenant_id, channel_id)
    );

    -- One row per delivery (an attempt series). series 0 is the dispatcher's,
    -- 1.. are republishes; the unique key makes dispatching an event twice
    -- (a second dispatcher, a replayed batch) create nothing new.
    CREATE TABLE webhook_deliveries (
      id uuid PRIMARY KEY,
      ord bigserial NOT NULL UNIQUE,
      tenant_id uuid NOT NULL,
      target_kind text NOT NULL CHECK (target_kind IN ('endpoint', 'channel')),
      target_id uuid NOT NULL,
      series int NOT NULL,
      seq bigint NOT NULL,
      event_type text NOT NULL,
      url text NOT NULL,
      body text NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
      attempts int NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      leased_until timestamptz,
      lease_token uuid,
      last_status int,
      last_error text,
      last_attempt_at timestamptz,
      created_at timestamptz NOT NULL,
      delivered_at timestamptz,
      UNIQUE (tenant_id, target_kind, target_id, seq, series)
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
    CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (target_id) WHERE state = 'pending' AND leased_until IS NOT NULL;
    CREATE INDEX webhook_deliveries_by_target ON webhook_deliveries (tenant_id, target_kind, target_id, ord);

    CREATE TABLE webhook_delivery_attempts (
      id bigserial PRIMARY KEY,
      delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
      tenant_id uuid NOT NULL,
      attempt int NOT NULL,
      status int,
      error text,
      duration_ms int NOT NULL,
      at timestamptz NOT NULL
    );
    CREATE INDEX webhook_delivery_attempts_by_delivery ON webhook_delivery_attempts (delivery_id, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'DROP TABLE IF EXISTS webhook_delivery_attempts, webhook_deliveries, dispatch_channels, dispatch_endpoints, webhook_endpoint_secrets, webhook_endpoints',
  );
}
