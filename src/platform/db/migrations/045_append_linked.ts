import type { Knex } from 'knex';

// A store append in one statement, the chain link checked by the statement (issue 50).
//
// Since the hash chain (migration 035) a bare append (PostgresEventStore.append) ran as a transaction of four
// statements in three round trips (BEGIN with the workspace's lock, es_append, COMMIT): the store hashes the new
// events after the head's hash, so it took the lock before hashing. This overload of es_append takes the hash the
// store followed (`p_prev`, which it remembers from its own commits or reads beforehand, outside any lock) and
// checks it under the lock it takes itself, in the statement that appends: the head must be `p_expected` (as
// before: ES409 with the head otherwise) and its hash `p_prev` (ES412 otherwise; the store then appends the
// locked way). So an append is one statement again, and no chain link is ever trusted without being checked.
// A head stored without a hash (AUDIT_CHAIN=off) is followed from the genesis value, as the store's locked path
// follows it (src/platform/crypto/chain.ts: GENESIS, 64 zeros).
//
// The three-argument es_append stays as it is: commands append inside their transaction, under the lock they
// already hold, and processes still running the previous release call it during a rolling upgrade.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION es_append(p_tenant uuid, p_expected bigint, p_events jsonb, p_prev text)
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
      IF p_expected IS NULL OR p_expected <> v_head THEN
        RAISE EXCEPTION 'wrong_expected_seq' USING ERRCODE = 'ES409', DETAIL = v_head::text;
      END IF;
      IF p_prev IS DISTINCT FROM COALESCE((SELECT hash FROM events WHERE tenant_id = p_tenant AND seq = v_head), repeat('0', 64)) THEN
        RAISE EXCEPTION 'chain_head_moved' USING ERRCODE = 'ES412', DETAIL = v_head::text;
      END IF;
      RETURN QUERY INSERT INTO events (tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, hash)
        SELECT p_tenant, v_head + x.ord, (x.v->>'id')::uuid, x.v->>'type', x.v->>'aggregate_type', x.v->>'aggregate_id',
               x.v->'payload', COALESCE(x.v->'metadata', '{}'::jsonb), (x.v->>'created_at')::timestamptz, x.v->>'hash'
        FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(v, ord)
        ORDER BY x.ord
        RETURNING *;
    END
    $fn$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS es_append(uuid, bigint, jsonb, text)');
}
