import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { EmailDomainEvent } from './email-domains.events.js';

export const EMAIL_DOMAINS = tableSpec({
  table: 'email_domains',
  key: ['tenant_id', 'id'],
  nullable: ['verified_at'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    domain: 'text',
    status: 'text',
    token: 'text',
    verified_at: 'timestamptz',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const emailDomainsProjector: Projector<EmailDomainEvent> = {
  name: 'email-domains',
  handles: ['email_domain.created', 'email_domain.verified', 'email_domain.deleted'],
  tables: ['email_domains'],
  project(events, writes) {
    const domains = writes.table(EMAIL_DOMAINS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'email_domain.created':
          domains.insert({
            ...key,
            domain: e.payload.domain,
            status: 'pending',
            token: e.payload.token,
            verified_at: null,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        case 'email_domain.verified':
          domains.patch(key, { status: 'verified', verified_at: e.created_at, updated_at: e.created_at });
          break;
        case 'email_domain.deleted':
          domains.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`email-domains projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
