import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { isUuid } from '../../platform/ids.js';
import { constant, dateTime, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { txtRecord, type EmailDomainView } from './email-domains.decider.js';
import type { EMAIL_DOMAINS } from './email-domains.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `email_domains` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type EmailDomainRow = RowOf<typeof EMAIL_DOMAINS> & {
  status: 'pending' | 'verified';
};

export const emailDomainList: ListSpec = {
  itemType: 'email_domain',
  sorts: { created_at: { column: 'created_at', kind: 'timestamp' }, updated_at: { column: 'updated_at', kind: 'timestamp' } },
  defaultSort: 'created_at',
  defaultOrder: 'asc',
};

export const emailDomainsOf = (db: Db, tenantId: string) => db('email_domains').where({ tenant_id: tenantId });

export async function findEmailDomain(db: Db, tenantId: string, id: string): Promise<EmailDomainRow | undefined> {
  return isUuid(id) ? emailDomainsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function findEmailDomainByName(db: Db, tenantId: string, domain: string): Promise<EmailDomainRow | undefined> {
  return emailDomainsOf(db, tenantId).andWhere({ domain: domain.toLowerCase() }).first();
}

/** Whether the workspace verified this domain (an e-mail channel's address may be on it). */
export async function domainVerified(db: Db, tenantId: string, domain: string): Promise<boolean> {
  return !!(await emailDomainsOf(db, tenantId).andWhere({ domain: domain.toLowerCase(), status: 'verified' }).first('id'));
}

export const emailDomainView = (r: EmailDomainRow | undefined): EmailDomainView | null =>
  r ? { id: r.id, domain: r.domain, status: r.status, token: r.token } : null;

export const emailDomainSchema = object(
  {
    type: constant('email_domain'),
    id: uuid,
    domain: str({ description: 'Lower case, without a trailing dot.' }),
    status: oneOfStrings(['pending', 'verified']),
    txt_record: object(
      {
        name: str({ description: 'Where to publish the TXT record: `_conversation-service.<domain>`.' }),
        value: str({ description: 'What the TXT record holds: `conversation-service-verification=<token>`.' }),
      },
      { title: 'EmailDomainTxtRecord' },
    ),
    verified_at: nullable(dateTime),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'EmailDomain' },
);
export type EmailDomain = Static<typeof emailDomainSchema>;

export const renderEmailDomain = (r: EmailDomainRow): EmailDomain => ({
  type: 'email_domain',
  id: r.id,
  domain: r.domain,
  status: r.status,
  txt_record: txtRecord(r.domain, r.token),
  verified_at: r.verified_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export const deletedEmailDomainSchema = object({ type: constant('email_domain'), id: uuid, deleted: constant(true) }, { title: 'DeletedEmailDomain' });
export type DeletedEmailDomain = Static<typeof deletedEmailDomainSchema>;
