import { defineEvent, Instant, Nullable, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// Outbound collections are the workspace's own content (a name, a template
// with its placeholders unrendered, an audience of ids, tag ids or a filter):
// nothing here is sealed. Recipients are contact ids and fixed reason codes;
// the rendered messages are conversation parts, sealed as every part is.

const Audience = () =>
  Type.Union([
    payload({ contact_ids: Type.Array(Uuid()) }),
    payload({ tag_ids: Type.Array(Uuid()) }),
    // the contacts filter language (POST /api/contacts/search's `query`): a condition or a group
    payload({ query: Type.Record(Type.String(), Type.Unknown()) }),
  ]);

const AuthorT = () => payload({ type: Type.Union([Type.Literal('member'), Type.Literal('api_key')]), id: Text() });

export const SKIP_REASONS = ['archived', 'erased', 'unknown_contact'] as const;
const SkipReason = () => Type.Union(SKIP_REASONS.map((r) => Type.Literal(r)));

export const OutboundCreated = defineEvent({
  type: 'outbound.created',
  aggregate_type: 'outbound',
  description: 'An outbound collection (a campaign) was created as a draft. `body` holds its placeholders unrendered.',
  payload: payload({
    id: Uuid(),
    name: Text(),
    channel_id: Uuid(),
    subject: Nullable(Text()),
    body: Text(),
    audience: Audience(),
    send_at: Nullable(Instant()),
  }),
});

export const OutboundUpdated = defineEvent({
  type: 'outbound.updated',
  aggregate_type: 'outbound',
  description: 'A draft collection changed; only changed fields are in the payload.',
  payload: payload({
    id: Uuid(),
    name: Type.Optional(Text()),
    channel_id: Type.Optional(Uuid()),
    subject: Type.Optional(Nullable(Text())),
    body: Type.Optional(Text()),
    audience: Type.Optional(Audience()),
    send_at: Type.Optional(Nullable(Instant())),
  }),
});

export const OutboundDeleted = defineEvent({
  type: 'outbound.deleted',
  aggregate_type: 'outbound',
  description: 'A draft collection was deleted.',
  payload: payload({ id: Uuid() }),
});

export const OutboundScheduled = defineEvent({
  type: 'outbound.scheduled',
  aggregate_type: 'outbound',
  description: 'Sending was asked for a future `send_at`: the audience is resolved when the schedule fires, not now.',
  payload: payload({ id: Uuid(), send_at: Instant(), author: AuthorT(), member_id: Uuid() }),
});

export const OutboundSending = defineEvent({
  type: 'outbound.sending',
  aggregate_type: 'outbound',
  description:
    'Sending began: the audience was resolved, once, into one recipient per contact, in audience order. A recipient with `skipped` will not be sent (archived, erased or unknown contact); every other one is pending until the worker starts its conversation.',
  payload: payload({
    id: Uuid(),
    author: AuthorT(),
    member_id: Uuid(),
    audience_size: Type.Integer({ minimum: 0 }),
    recipients: Type.Array(payload({ contact_id: Uuid(), skipped: Type.Optional(SkipReason()) })),
  }),
});

export const OutboundSent = defineEvent({
  type: 'outbound.sent',
  aggregate_type: 'outbound',
  description: 'Every recipient of the collection has an outcome (sent, failed or skipped): sending is over.',
  payload: payload({ id: Uuid(), sent: Type.Integer({ minimum: 0 }), failed: Type.Integer({ minimum: 0 }), skipped: Type.Integer({ minimum: 0 }) }),
});

export const OutboundCancelled = defineEvent({
  type: 'outbound.cancelled',
  aggregate_type: 'outbound',
  description:
    'The collection was cancelled (`reason` `requested`; or, when a schedule fired, `audience_too_large` for an audience over the limit, `audience_invalid` for a filter query the language no longer reads). `contact_ids` are the recipients that were still pending: none of them will be sent.',
  payload: payload({
    id: Uuid(),
    reason: Type.Union([Type.Literal('requested'), Type.Literal('audience_too_large'), Type.Literal('audience_invalid')]),
    contact_ids: Type.Array(Uuid()),
  }),
});

export const OutboundRecipientSent = defineEvent({
  type: 'outbound_recipient.sent',
  aggregate_type: 'outbound',
  description: "A recipient's conversation was started (in the same transaction as its conversation.created and first part).",
  payload: payload({ collection_id: Uuid(), contact_id: Uuid(), conversation_id: Uuid() }),
});

export const OutboundRecipientFailed = defineEvent({
  type: 'outbound_recipient.failed',
  aggregate_type: 'outbound',
  description: "A recipient could not be sent (e.g. `contact_unreachable`: an api channel needs the contact's external_id); the others go on.",
  payload: payload({ collection_id: Uuid(), contact_id: Uuid(), code: Text(), message: Text() }),
});

export const OutboundRecipientSkipped = defineEvent({
  type: 'outbound_recipient.skipped',
  aggregate_type: 'outbound',
  description: 'A pending recipient was skipped when its turn came: the contact was archived or erased after the audience was resolved.',
  payload: payload({ collection_id: Uuid(), contact_id: Uuid(), reason: SkipReason() }),
});

export const outboundEvents = [
  OutboundCreated,
  OutboundUpdated,
  OutboundDeleted,
  OutboundScheduled,
  OutboundSending,
  OutboundSent,
  OutboundCancelled,
  OutboundRecipientSent,
  OutboundRecipientFailed,
  OutboundRecipientSkipped,
] as const;
export type OutboundEvent = EventOf<(typeof outboundEvents)[number]>;
export type Audience = EventOf<typeof OutboundCreated>['payload']['audience'];
export type OutboundAuthor = EventOf<typeof OutboundScheduled>['payload']['author'];
export type SkipReason = (typeof SKIP_REASONS)[number];
