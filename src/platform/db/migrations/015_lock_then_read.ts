import type { Knex } from 'knex';

// Take a tenant's append lock and read one value under it, in one round trip.
// It must be a function: in one plain statement (`SELECT pg_advisory_xact_lock(..),
// (SELECT ..)`) the read would use the statement's snapshot, taken BEFORE the
// lock was waited for, and miss what the previous holder committed meanwhile
// (found by the scale-out run: stale checkpoints, wrong expected seqs). In a
// VOLATILE plpgsql function each statement takes a fresh snapshot, so the read
// sees everything committed before the lock was granted.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION es_lock_then_read(p_tenant uuid, p_query text) RETURNS bigint
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE v bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text, 0));
      EXECUTE p_query INTO v USING p_tenant;
      RETURN v;
    END
    $fn$;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS es_lock_then_read(uuid, text)');
}
