import type { Knex } from 'knex';

// A command's answer is stored as its Idempotency-Key's answer inside the
// command's own transaction (src/api/idempotency/idempotency.ts). If storing
// it fails, that must not cost the command: the events are the truth, the
// answer only what was said about them. This function marks the requests
// completed under an exception block (a subtransaction: one statement, no
// SAVEPOINT round trips); on failure it undoes just that and answers false,
// and the answer is stored after the commit as any other. It runs as its
// caller, behind row-level security. One generic plan: the custom plans of an
// UPDATE joined to unnest never looked cheaper to the planner than replanning.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION idempotency_complete(
      tenants uuid[], callers text[], keys text[], statuses int[], bodies text[], headers jsonb[], ats timestamptz[]
    ) RETURNS boolean LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
    BEGIN
      UPDATE idempotency_keys k
         SET status = 'completed', response_status = x.status, response_body = x.body, response_headers = x.headers, completed_at = x.at
        FROM unnest(tenants, callers, keys, statuses, bodies, headers, ats) AS x(tenant_id, caller_id, key, status, body, headers, at)
       WHERE k.tenant_id = x.tenant_id AND k.caller_id = x.caller_id AND k.key = x.key;
      RETURN true;
    EXCEPTION WHEN OTHERS THEN
      RETURN false;
    END $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP FUNCTION IF EXISTS idempotency_complete(uuid[], text[], text[], int[], text[], jsonb[], timestamptz[])');
}
