// Which workspace holds a verified domain, one row each beside the log
// (email_domain_claims, migration 044), under a unique index on the domain
// across every workspace: the wall that keeps a domain one workspace's when two
// verify it at the same time (each appends under its own lock, so neither sees
// the other's pending verification). Like channel_addresses: primary data, not a
// read model; a rebuild does not touch it.
import type { Db } from '../../commands/command.js';
import { domainTaken } from './email-domains.decider.js';

/** Claims the domain for the workspace, in the verifying command's transaction; 409 domain_taken when another workspace holds it. */
export async function claimDomain(db: Db, row: { tenantId: string; domainId: string; domain: string }): Promise<void> {
  try {
    await db('email_domain_claims').insert({ tenant_id: row.tenantId, domain_id: row.domainId, domain: row.domain.toLowerCase() });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw domainTaken(row.domain);
    throw e;
  }
}

/** Gives the domain up (deleted): another workspace may verify it. */
export async function releaseDomain(db: Db, tenantId: string, domainId: string): Promise<void> {
  await db('email_domain_claims').where({ tenant_id: tenantId, domain_id: domainId }).del();
}

/** The workspace holding a verified domain, looked up across workspaces (the owner role); null when none does. */
export async function domainHolder(owner: Db, domain: string): Promise<string | null> {
  const row = (await owner('email_domain_claims').where({ domain: domain.toLowerCase() }).first('tenant_id')) as { tenant_id: string } | undefined;
  return row?.tenant_id ?? null;
}
