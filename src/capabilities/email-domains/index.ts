// E-mail domains (issue 43): a domain belongs to the workspace that proves it
// controls its DNS (a TXT record holding the workspace's token). An e-mail
// channel's address must be on a domain its workspace verified (channels import
// domainVerified from here), unless the operator set EMAIL_DOMAIN_VERIFICATION=off.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { emailDomainEvents } from './email-domains.events.js';
import { emailDomainsProjector } from './email-domains.projection.js';
import { emailDomainsRoutes } from './email-domains.routes.js';

export { domainVerified } from './email-domains.read.js';
export { domainHolder } from './domain-claims.js';
export { domainNotVerified, domainTaken } from './email-domains.decider.js';
export type { EmailDomainEvent } from './email-domains.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  domain_not_verified: {
    status: 409,
    when: "Verifying an e-mail domain whose TXT record does not hold the workspace's token (or the DNS did not answer); creating an `email` channel on a domain the workspace has not verified (unless EMAIL_DOMAIN_VERIFICATION=off).",
  },
  domain_taken: {
    status: 409,
    when: 'Adding, verifying or creating an `email` channel on a domain another workspace verified.',
  },
  email_domain_exists: { status: 409, when: 'Adding an e-mail domain the workspace has already.' },
});

export const emailDomainsModule = defineModule({
  name: 'email-domains',
  errors,
  tables: ['email_domain_claims'],
  events: emailDomainEvents,
  projectors: [emailDomainsProjector],
  routes: emailDomainsRoutes,
});
