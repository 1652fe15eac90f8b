import type { Knex } from 'knex';

// es_lock_then_read (migration 015) with the head's chain hash: when several processes write one workspace, the
// head a transaction follows was often committed by another process, whose hash this one never saw (ChainHeads
// remembers only its own commits). The store then read it under the lock, a round trip of its own while the
// workspace's writes queued behind it (HASH_AT, src/eventstore/postgres.store.ts). Here it comes back with the lock
// and the checkpoint, read by the same fresh snapshot: the hash of the event at the seq read, unless that is
// `p_known` (the head the process remembers, whose hash it has; NULL: the chain is off) or 0: no probe then, and a
// NULL hash. Where there is no such event (a checkpoint that is not the head: the append is then refused) or it was
// written unhashed, the genesis value, as the store's own read of it (HASH_AT) chains from.
// The two-argument form stays for processes of the previous release during an upgrade.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION es_lock_then_read(p_tenant uuid, p_query text, p_known bigint, OUT read bigint, OUT hash text)
    LANGUAGE plpgsql VOLATILE AS $fn$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text, 0));
      EXECUTE p_query INTO read USING p_tenant;
      IF p_known IS NOT NULL AND read IS DISTINCT FROM p_known AND read > 0 THEN
        -- The primary key (tenant_id, seq): one probe, whatever the planner knows of the workspace.
        hash := COALESCE((SELECT e.hash FROM events e WHERE e.tenant_id = p_tenant AND e.seq = read), repeat('0', 64));
      END IF;
    END
    $fn$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS es_lock_then_read(uuid, text, bigint)');
}
