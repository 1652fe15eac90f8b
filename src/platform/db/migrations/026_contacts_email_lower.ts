import type { Knex } from 'knex';

// Contacts found by e-mail (case-insensitive) through an index under row-level
// security. The index on lower(email) was never used by requests: behind the
// policy, Postgres only uses a condition as an index condition when it cannot
// leak row data, and lower(email) hands a column to a function not marked
// leakproof. So every lookup by e-mail (each inbound post, most starts) read
// the workspace's contacts one by one. The comparison on a stored column,
// email_lower = lower($1), passes no column to a function and is used.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE contacts ADD COLUMN email_lower text GENERATED ALWAYS AS (lower(email)) STORED;
    CREATE INDEX contacts_email_lower ON contacts (tenant_id, email_lower);
    DROP INDEX IF EXISTS contacts_email;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX IF NOT EXISTS contacts_email ON contacts (tenant_id, lower(email));
    DROP INDEX IF EXISTS contacts_email_lower;
    ALTER TABLE contacts DROP COLUMN IF EXISTS email_lower;
  `);
}
