import type { Knex } from 'knex';
import { TENANT_ROLE, tenantWall } from './014_row_level_security.js';

// Every table behind the wall gets its policy again, in the form tenantWall now
// writes: the tenant setting read through a subquery, so that Postgres plans a
// workspace as an average one instead of looking the setting up in statistics
// that may not count it yet (see tenantWall).
export async function up(knex: Knex): Promise<void> {
  for (const { table, column } of await walled(knex)) await tenantWall(knex, table, column);
}

// The policies' old form: the setting read directly.
export async function down(knex: Knex): Promise<void> {
  for (const { table, column } of await walled(knex)) {
    await knex.raw(`
      DROP POLICY IF EXISTS tenant_wall ON ${table};
      CREATE POLICY tenant_wall ON ${table} TO ${TENANT_ROLE}
        USING (${column} = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
        WITH CHECK (${column} = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
    `);
  }
}

/** The tables that have the wall's policy, with the column it compares. */
async function walled(knex: Knex): Promise<{ table: string; column: string }[]> {
  const res = await knex.raw(`
    SELECT p.tablename AS table, CASE WHEN p.tablename = 'workspaces' THEN 'id' ELSE 'tenant_id' END AS column
      FROM pg_policies p WHERE p.schemaname = current_schema() AND p.policyname = 'tenant_wall' ORDER BY 1`);
  return res.rows as { table: string; column: string }[];
}
