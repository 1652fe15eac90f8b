import type { Knex } from 'knex';
import { tenantStatistics } from './014_row_level_security.js';

// Behind row-level security every statement of a request carries
// `tenant_id = current_setting('app.tenant_id')`, a value the planner never
// knows. With fewer workspaces than the statistics' most-common-values list
// holds (100), that list covers every tenant_id, and an unknown value is then
// estimated to match one row: every workspace looks empty to the planner. It
// drove the projections' keyed UPDATEs (`… FROM jsonb_to_recordset(…) v WHERE
// t.tenant_id = v.tenant_id AND t.id = v.id`) from the table side: each reply
// read every conversation of its workspace (5.4 ms a statement with 1,000,
// growing with the workspace) instead of probing the primary key once per row
// (0.6 ms). Without statistics on tenant_id the planner takes its default for
// an equality (half a percent of the table) and probes by key.
export async function up(knex: Knex): Promise<void> {
  const tables = await knex.raw(`
    SELECT DISTINCT c.relname FROM pg_policy p
      JOIN pg_class c ON c.oid = p.polrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
     WHERE p.polname = 'tenant_wall' AND n.nspname = current_schema()
     ORDER BY 1`);
  for (const { relname } of tables.rows as { relname: string }[]) await tenantStatistics(knex, relname);
}

export async function down(knex: Knex): Promise<void> {
  const tables = await knex.raw(`
    SELECT c.relname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE a.attname = 'tenant_id' AND a.attstattarget = 0 AND n.nspname = current_schema() AND c.relkind = 'r'`);
  for (const { relname } of tables.rows as { relname: string }[]) await knex.raw(`ALTER TABLE ${relname} ALTER COLUMN tenant_id SET STATISTICS -1`);
}
