import type { Knex } from 'knex';

// Companies (a read model of company.* events). The workspace's own company_id
// is unique per workspace; the decider refuses a duplicate under the tenant's
// append lock, and the unique index is the second wall.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE companies (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      company_id text NOT NULL,
      name text NOT NULL,
      website text,
      plan text,
      size integer,
      custom_attributes jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE UNIQUE INDEX companies_company_id ON companies (tenant_id, company_id);
    CREATE INDEX companies_by_created ON companies (tenant_id, created_at, id);
    CREATE INDEX companies_by_updated ON companies (tenant_id, updated_at, id);
    CREATE INDEX companies_by_name ON companies (tenant_id, name, id);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS companies');
}
