import type { Knex } from 'knex';

// es_append's look-ups of the workspace's own events (is the first event already
// stored: a retry; its stored events; the head's hash) take the workspace through
// a subquery, as the wall's policy does since migration 060, so Postgres plans it
// as an average workspace. PL/pgSQL plans a function's statements with its
// arguments as constants, and a workspace the statistics did not count yet was
// estimated at one row: the retry check, which runs on every append, then read
// the workspace's events through events_by_aggregate and filtered the id (1,668
// events a call in the write bench; test/projections/tenant-statistics.e2e.test.ts).
// Otherwise both overloads are as migrations 035 and 045 left them.
const WORKSPACE = '(SELECT p_tenant)';

/**
 * es_append as migrations 035 (`linked` false: three arguments, in a command's transaction, the expected seq
 * optional) and 045 (`linked` true: four, a store append whose expected seq is required and whose chain link
 * `p_prev` is checked) left it, the workspace's events looked up by `ws`; `retryCheck`, the condition under
 * which the first event is already stored (a retry), as migration 063 words it.
 */
export const appendFunction = (
  ws: string,
  linked: boolean,
  retryCheck = `EXISTS (SELECT 1 FROM events WHERE tenant_id = ${ws} AND id = (p_events->0->>'id')::uuid)`,
) => `
    CREATE OR REPLACE FUNCTION es_append(p_tenant uuid, p_expected bigint, p_events jsonb${linked ? ', p_prev text' : ''})
    RETURNS SETOF events LANGUAGE plpgsql AS $fn$
    DECLARE
      v_head bigint;
      v_n int := jsonb_array_length(p_events);
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text, 0));
      -- Idempotent retry: events whose ids are already stored are returned as they are.
      IF ${retryCheck} THEN
        RETURN QUERY SELECT e.* FROM events e
          WHERE e.tenant_id = ${ws} AND e.id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_events) x)
          ORDER BY e.seq;
        RETURN;
      END IF;
      UPDATE event_heads SET last_seq = last_seq + v_n WHERE tenant_id = p_tenant RETURNING last_seq - v_n INTO v_head;
      IF NOT FOUND THEN
        v_head := 0;
        INSERT INTO event_heads (tenant_id, last_seq) VALUES (p_tenant, v_n);
      END IF;
      IF ${linked ? 'p_expected IS NULL OR' : 'p_expected IS NOT NULL AND'} p_expected <> v_head THEN
        RAISE EXCEPTION 'wrong_expected_seq' USING ERRCODE = 'ES409', DETAIL = v_head::text;
      END IF;${
        linked
          ? `
      IF p_prev IS DISTINCT FROM COALESCE((SELECT hash FROM events WHERE tenant_id = ${ws} AND seq = v_head), repeat('0', 64)) THEN
        RAISE EXCEPTION 'chain_head_moved' USING ERRCODE = 'ES412', DETAIL = v_head::text;
      END IF;`
          : ''
      }
      RETURN QUERY INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, hash)
        SELECT p_tenant, v_head + x.ord, (x.v->>'id')::uuid, x.v->>'type', x.v->>'aggregate_type', x.v->>'aggregate_id',
               x.v->'payload', COALESCE(x.v->'metadata', '{}'::jsonb), (x.v->>'created_at')::timestamptz, x.v->>'hash'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(v, ord)
        ORDER BY x.ord
        RETURNING *;
    END
    $fn$;
`;

export async function up(knex: Knex): Promise<void> {
  for (const linked of [false, true]) await knex.raw(appendFunction(WORKSPACE, linked));
}

export async function down(knex: Knex): Promise<void> {
  for (const linked of [false, true]) await knex.raw(appendFunction('p_tenant', linked));
}
