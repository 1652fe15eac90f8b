import type { Knex } from 'knex';

// Marks requests completed with their answers: the one statement that stores
// an Idempotency-Key's answer (src/api/idempotency/idempotency.ts). Row by row
// on the primary key: joined to unnest(…) the table got a generic plan that
// scanned it (0.74 ms a call under the write bench, pg_stat_statements). It runs
// as its caller, behind row-level security when that is a request's connection.
//
// `quiet`: inside a command's transaction, where the answer is stored with the
// command's events, a failure to store it must not cost the command (the events
// are the truth, the answer only what was said about them). The exception block
// (a subtransaction: one statement, no SAVEPOINT round trips) undoes just the
// store and answers false, and the answer is stored after the commit as any
// other. Not quiet (after the commit), the error goes to the caller as it was.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION idempotency_complete(
      tenants uuid[], callers text[], keys text[], statuses int[], bodies text[], headers jsonb[], ats timestamptz[], quiet boolean
    ) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
        UPDATE idempotency_keys
           SET status = 'completed', response_status = statuses[i], response_body = bodies[i], response_headers = headers[i], completed_at = ats[i]
         WHERE tenant_id = tenants[i] AND caller_id = callers[i] AND key = keys[i];
      END LOOP;
      RETURN true;
    EXCEPTION WHEN OTHERS THEN
      IF quiet THEN
        RETURN false;
      END IF;
      RAISE;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS idempotency_complete(uuid[], text[], text[], int[], text[], jsonb[], timestamptz[], boolean)');
}
