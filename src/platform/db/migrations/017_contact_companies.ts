import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// The contacts API (issue 13): which companies a contact belongs to (a read
// model of contact.company_attached/detached; a contact may belong to several),
// and the index the contact lists walk by updated_at.
//
// Unique read-model keys other than the primary key are checked at commit
// (DEFERRABLE INITIALLY DEFERRED). A rebuild folds a batch of events into one
// statement per table: a contact giving up its external_id and another taking
// it become one UPDATE, a company deleted and its company_id reused a DELETE and
// an INSERT. An immediate unique index checks those row by row, in an order
// Postgres does not promise, so a rebuild could refuse a history the deciders
// had accepted; at commit only the end state counts. (The deciders refuse a duplicate under
// the tenant's append lock; these constraints are the second wall. E-mails have
// only the first: a constraint cannot be on lower(email).)
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE contact_companies (
      tenant_id uuid NOT NULL,
      contact_id uuid NOT NULL,
      company_id uuid NOT NULL,
      attached_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, contact_id, company_id)
    );
    CREATE INDEX contact_companies_by_company ON contact_companies (tenant_id, company_id, contact_id);
    CREATE INDEX contacts_by_updated ON contacts (tenant_id, updated_at, id);

    DROP INDEX contacts_external;
    ALTER TABLE contacts ADD CONSTRAINT contacts_external UNIQUE (tenant_id, external_id) DEFERRABLE INITIALLY DEFERRED;
    DROP INDEX companies_company_id;
    ALTER TABLE companies ADD CONSTRAINT companies_company_id UNIQUE (tenant_id, company_id) DEFERRABLE INITIALLY DEFERRED;
  `);
  await tenantWall(knex, 'contact_companies');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS contact_companies;
    DROP INDEX IF EXISTS contacts_by_updated;
    ALTER TABLE contacts DROP CONSTRAINT IF EXISTS contacts_external;
    CREATE UNIQUE INDEX IF NOT EXISTS contacts_external ON contacts (tenant_id, external_id) WHERE external_id IS NOT NULL;
    ALTER TABLE companies DROP CONSTRAINT IF EXISTS companies_company_id;
    CREATE UNIQUE INDEX IF NOT EXISTS companies_company_id ON companies (tenant_id, company_id);
  `);
}
