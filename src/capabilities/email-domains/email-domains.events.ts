import { defineEvent, payload, Text, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// A workspace's e-mail domains. A domain is the workspace's once it proved it
// controls the domain's DNS (a TXT record holding the token). The domain and the
// token are no one's personal data: nothing here is sealed.

export const EmailDomainCreated = defineEvent({
  type: 'email_domain.created',
  aggregate_type: 'email_domain',
  description:
    'A workspace asked to verify an e-mail domain: it is `pending` until the TXT record `_conversation-service.<domain>` holds `conversation-service-verification=<token>`.',
  payload: payload({ id: Uuid(), domain: Text(), token: Text() }),
});

export const EmailDomainVerified = defineEvent({
  type: 'email_domain.verified',
  aggregate_type: 'email_domain',
  description:
    "The domain's TXT record held the workspace's token: the domain is the workspace's, its e-mail channels may use it, and no other workspace can verify it while it stays.",
  payload: payload({ id: Uuid(), domain: Text() }),
});

export const EmailDomainDeleted = defineEvent({
  type: 'email_domain.deleted',
  aggregate_type: 'email_domain',
  description:
    'An e-mail domain was deleted: another workspace may verify it. Channels made on it while it was verified keep their addresses; no new one can be made on it until it is verified again.',
  payload: payload({ id: Uuid(), domain: Text() }),
});

export const emailDomainEvents = [EmailDomainCreated, EmailDomainVerified, EmailDomainDeleted] as const;
export type EmailDomainEvent = EventOf<(typeof emailDomainEvents)[number]>;
