import type { CommandSpec } from '../../commands/command.js';
import { decideCreateEmailDomain, decideDeleteEmailDomain, decideVerifyEmailDomain, type EmailDomainView } from './email-domains.decider.js';
import type { EmailDomainEvent } from './email-domains.events.js';
import { emailDomainView, findEmailDomain, findEmailDomainByName } from './email-domains.read.js';
import { claimDomain, releaseDomain } from './domain-claims.js';

export const createEmailDomain = (input: {
  id: string;
  domain: string;
  token: string;
}): CommandSpec<{ sameDomain: EmailDomainView | null }, EmailDomainEvent> => ({
  name: 'CreateEmailDomain',
  load: async (db, ctx) => ({ sameDomain: emailDomainView(await findEmailDomainByName(db, ctx.tenantId, input.domain)) }),
  decide: (s) => decideCreateEmailDomain(input, s),
});

export const verifyEmailDomain = (input: { id: string; records: readonly string[] }): CommandSpec<EmailDomainView | null, EmailDomainEvent> => ({
  name: 'VerifyEmailDomain',
  load: async (db, ctx) => emailDomainView(await findEmailDomain(db, ctx.tenantId, input.id)),
  decide: (d) => decideVerifyEmailDomain(input, d),
  // Of two workspaces verifying one domain at once, the second waits here for the first and is refused.
  beside: async (db, events, ctx) => {
    const verified = events.find((e) => e.type === 'email_domain.verified');
    if (verified) await claimDomain(db, { tenantId: ctx.tenantId, domainId: verified.payload.id, domain: verified.payload.domain });
  },
});

export const deleteEmailDomain = (input: { id: string }): CommandSpec<EmailDomainView | null, EmailDomainEvent> => ({
  name: 'DeleteEmailDomain',
  load: async (db, ctx) => emailDomainView(await findEmailDomain(db, ctx.tenantId, input.id)),
  decide: (d) => decideDeleteEmailDomain(d),
  beside: async (db, events, ctx) => {
    if (events.length) await releaseDomain(db, ctx.tenantId, input.id);
  },
});
