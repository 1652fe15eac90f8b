import type { Knex } from 'knex';

// Row-level security as the second tenancy wall (see src/platform/db/tenant-scope.ts).
// A role the service takes inside each request's transaction; every table with a
// tenant_id (and workspaces, by id) admits only the rows of the transaction's
// `app.tenant_id`. The connecting (owner) role is not subject to RLS: it is the
// documented bypass for work that crosses tenants.
//
// Creating the role needs CREATEROLE (the embedded default's user is a superuser).
// With a managed Postgres whose user cannot create roles, create
// `conversation_service_tenant` (NOLOGIN) and grant it to the service's user first;
// this migration then only grants and enables.
export const TENANT_ROLE = 'conversation_service_tenant';

/**
 * Puts a table behind the wall. Later migrations that add a tenant table call this.
 *
 * The setting is read through a subquery, which Postgres runs once per statement
 * and cannot read while it plans: it then estimates the workspace's rows as an
 * average one (the table's rows over its distinct workspaces). Read directly,
 * the setting was looked up in the column's statistics while planning, and a
 * workspace outside their most common values (new, or grown since the last
 * ANALYZE, while a few others fill the list) was estimated at one row: keyed
 * writes were then planned as a scan of the whole workspace (migration 060,
 * test/projections/tenant-statistics.e2e.test.ts).
 */
export async function tenantWall(knex: Knex, table: string, column = 'tenant_id'): Promise<void> {
  const current = "(SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid)";
  await knex.raw(`
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    DROP POLICY IF EXISTS tenant_wall ON ${table};
    CREATE POLICY tenant_wall ON ${table} TO ${TENANT_ROLE}
      USING (${column} = ${current})
      WITH CHECK (${column} = ${current});
  `);
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${TENANT_ROLE}') THEN
        CREATE ROLE ${TENANT_ROLE} NOLOGIN;
      END IF;
    END $$;
  `);
  // The service's user must be a member to take the role.
  await knex.raw(`GRANT ${TENANT_ROLE} TO CURRENT_USER`).catch((e: { code?: string }) => {
    if (e.code !== '0LP01' && e.code !== '42710') throw e; // already a member (or granting to oneself)
  });
  await knex.raw(`
    GRANT USAGE ON SCHEMA public TO ${TENANT_ROLE};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${TENANT_ROLE};
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${TENANT_ROLE};
    GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${TENANT_ROLE};
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${TENANT_ROLE};
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${TENANT_ROLE};
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT EXECUTE ON FUNCTIONS TO ${TENANT_ROLE};
  `);
  const tables = await knex.raw(`
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' ORDER BY 1`);
  for (const { table_name } of tables.rows as { table_name: string }[]) await tenantWall(knex, table_name);
  await tenantWall(knex, 'workspaces', 'id');
}

export async function down(knex: Knex): Promise<void> {
  const tables = await knex.raw("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND rowsecurity");
  for (const { tablename } of tables.rows as { tablename: string }[]) {
    await knex.raw(`DROP POLICY IF EXISTS tenant_wall ON ${tablename}; ALTER TABLE ${tablename} DISABLE ROW LEVEL SECURITY;`);
  }
}
