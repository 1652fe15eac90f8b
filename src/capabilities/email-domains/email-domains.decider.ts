// Pure rules of e-mail domains: one row per domain in a workspace; verified when
// the domain's TXT record holds the workspace's token (the route looks it up,
// outside the command's transaction, and hands the records in); a repeat of a
// verification or a deletion changes nothing more.
import { Conflict, NotFound } from '../../platform/errors.js';
import type { EmailDomainEvent } from './email-domains.events.js';

export interface EmailDomainView {
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  token: string;
}

/** The name and value of the TXT record that proves a workspace controls the domain. */
export const txtRecord = (domain: string, token: string) => ({
  name: `_conversation-service.${domain}`,
  value: `conversation-service-verification=${token}`,
});

export const domainTaken = (domain: string) =>
  new Conflict('domain_taken', `Another workspace verified ${domain}: its addresses are that workspace's. Ask its owner, or the operator.`);

export const domainNotVerified = (domain: string, why: string) => new Conflict('domain_not_verified', `${domain} is not verified by this workspace: ${why}`);

export function decideCreateEmailDomain(cmd: { id: string; domain: string; token: string }, s: { sameDomain: EmailDomainView | null }): EmailDomainEvent[] {
  if (s.sameDomain) throw new Conflict('email_domain_exists', `This workspace has ${cmd.domain} already (${s.sameDomain.id}, ${s.sameDomain.status}).`);
  return [
    { type: 'email_domain.created', aggregate_type: 'email_domain', aggregate_id: cmd.id, payload: { id: cmd.id, domain: cmd.domain, token: cmd.token } },
  ];
}

/** `records`: the TXT records found at the domain's verification name when the route looked. */
export function decideVerifyEmailDomain(cmd: { records: readonly string[] }, domain: EmailDomainView | null): EmailDomainEvent[] {
  if (!domain) throw new NotFound('e-mail domain');
  if (domain.status === 'verified') return [];
  const { name, value } = txtRecord(domain.domain, domain.token);
  if (!cmd.records.includes(value))
    throw domainNotVerified(domain.domain, `no TXT record at ${name} holds ${value} (it may take the DNS a while to publish it).`);
  return [{ type: 'email_domain.verified', aggregate_type: 'email_domain', aggregate_id: domain.id, payload: { id: domain.id, domain: domain.domain } }];
}

export function decideDeleteEmailDomain(domain: EmailDomainView | null): EmailDomainEvent[] {
  if (!domain) throw new NotFound('e-mail domain');
  return [{ type: 'email_domain.deleted', aggregate_type: 'email_domain', aggregate_id: domain.id, payload: { id: domain.id, domain: domain.domain } }];
}
