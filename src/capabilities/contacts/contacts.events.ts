import { defineEvent, Nullable, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

export const ContactCreated = defineEvent({
  type: 'contact.created',
  aggregate_type: 'contact',
  description: 'A contact (customer) was created, by an inbound post, a teammate-started conversation or the API.',
  personal: { kind: 'contact', id: 'contact_id', fields: ['external_id', 'email', 'name', 'phone'], fresh: true },
  payload: payload({
    contact_id: Uuid(),
    external_id: Personal(Text()),
    email: Personal(Text()),
    name: Personal(Text()),
    phone: Personal(Text()),
    channel_id: Nullable(Uuid()),
  }),
});

export const ContactUpdated = defineEvent({
  type: 'contact.updated',
  aggregate_type: 'contact',
  description: "Fields of a contact changed; only the changed fields are in the payload.",
  personal: { kind: 'contact', id: 'contact_id', fields: ['external_id', 'email', 'name', 'phone'] },
  payload: payload({
    contact_id: Uuid(),
    external_id: Type.Optional(Personal(Text())),
    email: Type.Optional(Personal(Text())),
    name: Type.Optional(Personal(Text())),
    phone: Type.Optional(Personal(Text())),
  }),
});

export const ContactErased = defineEvent({
  type: 'contact.erased',
  aggregate_type: 'contact',
  description:
    "A contact was erased: their data keys were destroyed, so their personal fields and the content of every part of their conversations read as null everywhere from now on (log, feed, deliveries, stored answers). Ids only: the conversations and parts it made unreadable.",
  payload: payload({ contact_id: Uuid(), conversation_ids: Type.Array(Uuid()), part_ids: Type.Array(Uuid()) }),
});

export const contactEvents = [ContactCreated, ContactUpdated, ContactErased] as const;
export type ContactEvent = EventOf<(typeof contactEvents)[number]>;
