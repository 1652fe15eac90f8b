import { defineEvent, Nullable, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

const Address = () => payload({ address: Text(), name: Nullable(Text()) });
const Verdict = () => Type.Union(['pass', 'fail', 'neutral', 'none', 'softfail', 'temperror', 'permerror', 'policy'].map((v) => Type.Literal(v)));

export const EmailReceived = defineEvent({
  type: 'email.received',
  aggregate_type: 'conversation',
  description:
    "An e-mail was filed as the part `part_id` (its conversation_part.created comes just before, in the same command): the message's headers, its sanitised HTML and the quoted history separated from the new text, sealed under the part's data key. `authentication` is mailauth's verdict; `suspicious` means DMARC failed: the message opened a conversation of its own, was threaded nowhere, and is authored by an unverified contact (found or filled by the external_id `unverified-email:<address>`, without an e-mail), never by the contact holding its From address. `cc` lists the Cc addresses. `automated`: an auto-reply, a list or bulk message, or one with a null return path; nothing is ever sent to it automatically.",
  personal: {
    kind: 'part',
    id: 'part_id',
    fields: ['message_id', 'from', 'to', 'cc', 'subject', 'html', 'quoted', 'attachments'],
    owner: { kind: 'conversation', id: 'conversation_id' },
  },
  payload: payload({
    conversation_id: Uuid(),
    part_id: Uuid(),
    channel_id: Uuid(),
    /** SHA-256 of the lower-cased Message-ID: the deduplication and threading key, kept when the content is erased */
    message_id_hash: Text(),
    threaded_by: Type.Union([Type.Literal('new'), Type.Literal('in_reply_to'), Type.Literal('references'), Type.Literal('reply_address')]),
    authentication: payload({ spf: Verdict(), dkim: Verdict(), dmarc: Verdict() }),
    suspicious: Type.Boolean(),
    automated: Type.Boolean(),
    message_id: Personal(Text()),
    from: Personal(Address()),
    to: Personal(Type.Array(Address())),
    cc: Personal(Type.Array(Address())),
    subject: Personal(Text()),
    html: Personal(Text()),
    quoted: Personal(Text()),
    attachments: Personal(Type.Array(payload({ name: Nullable(Text()), content_type: Text(), size: Type.Integer({ minimum: 0 }) }))),
  }),
});

export const EmailSent = defineEvent({
  type: 'email.sent',
  aggregate_type: 'conversation',
  description:
    "A teammate's reply (the part `part_id`) left through the SMTP relay, which accepted it. `message_id` is the one it carries, in the channel's domain; a customer's reply naming it threads into this conversation.",
  personal: { kind: 'part', id: 'part_id', fields: ['message_id', 'to', 'subject'], owner: { kind: 'conversation', id: 'conversation_id' } },
  payload: payload({
    conversation_id: Uuid(),
    part_id: Uuid(),
    channel_id: Uuid(),
    message_id_hash: Text(),
    relay_response: Text(),
    message_id: Personal(Text()),
    to: Personal(Type.Array(Address())),
    subject: Personal(Text()),
  }),
});

export const PartDeliveryFailed = defineEvent({
  type: 'conversation_part.delivery_failed',
  aggregate_type: 'conversation',
  description:
    "A teammate's reply on an e-mail channel could not be delivered: the relay refused it for good (`reason` `rejected`, a 5xx; `status` is the SMTP code) or a bounce (a delivery status notification) came back for it (`reason` `bounced`). `diagnostic` is the relay's or the bounce's answer, sealed under the part's data key (it may name the recipient).",
  personal: { kind: 'part', id: 'part_id', fields: ['diagnostic'], owner: { kind: 'conversation', id: 'conversation_id' } },
  payload: payload({
    conversation_id: Uuid(),
    part_id: Uuid(),
    channel_id: Uuid(),
    reason: Type.Union([Type.Literal('rejected'), Type.Literal('bounced')]),
    status: Nullable(Type.Integer()),
    diagnostic: Personal(Text()),
  }),
});

export const emailEvents = [EmailReceived, EmailSent, PartDeliveryFailed] as const;
export type EmailEvent = EventOf<(typeof emailEvents)[number]>;
export type EmailReceivedPayload = EventOf<typeof EmailReceived>['payload'];
