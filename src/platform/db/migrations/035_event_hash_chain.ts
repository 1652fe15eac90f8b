import type { Knex } from 'knex';
import { canonicalReady, chainHash, GENESIS } from '../../crypto/chain.js';

// The hash chain (docs/audit.md, src/platform/crypto/chain.ts): every event row
// carries `hash`, computed by the store under the workspace's append lock and
// inserted by es_append with the event. The events stored before this
// migration are hashed here, per workspace in seq order, so every workspace's
// chain starts at its first event. NULL only for events written with
// AUDIT_CHAIN=off (a bench switch); `audit verify` refuses them.
//
// The backfill reads and writes a page at a time (keyset by seq), so its
// memory does not grow with the log; it rewrites every events row once.
const PAGE = 2000;

interface Row {
  tenant_id: string;
  seq: string;
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  metadata: Record<string, unknown>;
  created_at: Date;
}

export async function up(knex: Knex): Promise<void> {
  await canonicalReady;
  await knex.raw('ALTER TABLE events ADD COLUMN IF NOT EXISTS hash text');
  const tenants = (await knex.raw('SELECT tenant_id FROM event_heads ORDER BY tenant_id')).rows as { tenant_id: string }[];
  for (const { tenant_id } of tenants) {
    let prev = GENESIS;
    let after = 0;
    for (;;) {
      const rows = (
        await knex.raw(
          `SELECT tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at
             FROM events WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
          [tenant_id, after, PAGE],
        )
      ).rows as Row[];
      if (rows.length === 0) break;
      const hashes = rows.map((r) => {
        prev = chainHash(prev, { ...r, seq: Number(r.seq), created_at: r.created_at.toISOString() });
        return prev;
      });
      await knex.raw(
        `UPDATE events e SET hash = x.hash FROM unnest(?::bigint[], ?::text[]) AS x(seq, hash)
          WHERE e.tenant_id = ? AND e.seq = x.seq`,
        [rows.map((r) => r.seq), hashes, tenant_id],
      );
      after = Number(rows[rows.length - 1]!.seq);
    }
  }
  // es_append inserts the hash the store computed; everything else as in migration 001.
  await knex.raw(appendFunction(true));
}

/** es_append as in migration 001, inserting the store's `hash` with each event or (down) not. */
const appendFunction = (hash: boolean): string => `
    CREATE OR REPLACE FUNCTION es_append(p_tenant uuid, p_expected bigint, p_events jsonb)
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
      RETURN QUERY INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at${hash ? ', hash' : ''})
        SELECT p_tenant, v_head + x.ord, (x.v->>'id')::uuid, x.v->>'type', x.v->>'aggregate_type', x.v->>'aggregate_id',
               x.v->'payload', COALESCE(x.v->'metadata', '{}'::jsonb), (x.v->>'created_at')::timestamptz${hash ? ", x.v->>'hash'" : ''}
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(v, ord)
        ORDER BY x.ord
        RETURNING *;
    END
    $fn$;
`;

export async function down(knex: Knex): Promise<void> {
  await knex.raw(appendFunction(false));
  await knex.raw('ALTER TABLE events DROP COLUMN IF EXISTS hash');
}
