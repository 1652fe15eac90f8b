import type { Knex } from 'knex';

// The Postgres event store.
//
// seq: per tenant, gapless, commit-ordered. es_append takes a transaction-level
// advisory lock on the tenant *before* the transaction's first write, bumps the
// tenant's head row and inserts the events, all in one round trip. A rollback
// undoes the head bump, so no gap. A bigserial is never the seq.
//
// Subscriptions over all tenants order events by (tx_id, position) and read only
// below the oldest running transaction (pg_snapshot_xmin), so an event committed
// late by a slow transaction is never skipped: readers wait for it. Because the
// advisory lock is taken before any write, a tenant's later append always gets a
// larger xid than its earlier one, so (tx_id, position) order keeps seq order
// within each tenant.
//
// es_append sends no NOTIFY: a transaction that has notified takes a
// database-wide lock on the notification queue at commit and holds it through
// the WAL flush, which made every append commit one at a time. The store
// notifies after commit instead (PostgresEventStore.notifyAppended).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE events (
      tenant_id uuid NOT NULL,
      seq bigint NOT NULL,
      id uuid NOT NULL,
      type text NOT NULL,
      aggregate_type text NOT NULL,
      aggregate_id text NOT NULL,
      payload jsonb NOT NULL,
      metadata jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      position bigserial NOT NULL,
      PRIMARY KEY (tenant_id, seq),
      UNIQUE (tenant_id, id)
    );
    CREATE INDEX events_subscription_order ON events (tx_id, position);

    CREATE TABLE event_heads (
      tenant_id uuid PRIMARY KEY,
      last_seq bigint NOT NULL
    );

    CREATE FUNCTION es_append(p_tenant uuid, p_expected bigint, p_events jsonb)
    RETURNS SETOF events LANGUAGE plpgsql AS $fn$
    DECLARE
      v_head bigint;
      v_n int := jsonb_array_length(p_events);
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text, 0));
      -- Idempotent retry: events whose ids are already stored are returned as they are.
      IF EXISTS (SELECT 1 FROM events WHERE tenant_id = p_tenant AND id = (p_events->0->>'id')::uuid) THEN
        RETURN QUERY SELECT e.* FROM events e
          WHERE e.tenant_id = p_tenant AND e.id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x)
          ORDER BY e.seq;
        RETURN;
      END IF;
      UPDATE event_heads SET last_seq = last_seq + v_n WHERE tenant_id = p_tenant RETURNING last_seq - v_n INTO v_head;
      IF NOT FOUND THEN
        v_head := 0;
        INSERT INTO event_heads (tenant_id, last_seq) VALUES (p_tenant, v_n);
      END IF;
      IF p_expected IS NOT NULL AND p_expected <> v_head THEN
        RAISE EXCEPTION 'wrong_expected_seq' USING ERRCODE = 'ES409', DETAIL = v_head::text;
      END IF;
      RETURN QUERY INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at)
        SELECT p_tenant, v_head + x.ord, (x.v->>'id')::uuid, x.v->>'type', x.v->>'aggregate_type', x.v->>'aggregate_id',
               x.v->'payload', COALESCE(x.v->'metadata', '{}'::jsonb), (x.v->>'created_at')::timestamptz
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(v, ord)
        ORDER BY x.ord
        RETURNING *;
    END
    $fn$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS es_append(uuid, bigint, jsonb); DROP TABLE IF EXISTS event_heads; DROP TABLE IF EXISTS events;');
}
