import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// E-mail domains (issue 43): a workspace's domains and whether it proved it
// controls them (the email-domains projector's read model), and, beside the log,
// which workspace holds each verified domain: email_domain_claims, under a
// unique index on the domain across every workspace, so that of two workspaces
// verifying one domain at once exactly one holds it (the same wall as
// channel_addresses, migration 043). Channels made before this migration keep
// their addresses; only new e-mail channels need a verified domain.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE email_domains (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      domain text NOT NULL,
      status text NOT NULL,
      token text NOT NULL,
      verified_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX email_domains_domain ON email_domains (tenant_id, domain);
    CREATE INDEX email_domains_created ON email_domains (tenant_id, created_at, id);
    CREATE TABLE email_domain_claims (
      tenant_id uuid NOT NULL,
      domain_id uuid NOT NULL,
      domain text NOT NULL,
      PRIMARY KEY (tenant_id, domain_id)
    );
    CREATE UNIQUE INDEX email_domain_claims_domain ON email_domain_claims (domain);
  `);
  await tenantWall(knex, 'email_domains');
  await tenantWall(knex, 'email_domain_claims');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS email_domain_claims; DROP TABLE IF EXISTS email_domains;');
}
