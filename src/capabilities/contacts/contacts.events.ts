import { defineEvent, Nullable, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

export const ContactCreated = defineEvent({
  type: 'contact.created',
  aggregate_type: 'contact',
  description: 'A contact (customer) was created, by an inbound post, a teammate-started conversation or the API.',
  payload: payload({
    contact_id: Uuid(),
    external_id: Nullable(Text()),
    email: Nullable(Text()),
    name: Nullable(Text()),
    phone: Nullable(Text()),
    channel_id: Nullable(Uuid()),
  }),
});

export const ContactUpdated = defineEvent({
  type: 'contact.updated',
  aggregate_type: 'contact',
  description: "Fields of a contact changed; only the changed fields are in the payload.",
  payload: payload({
    contact_id: Uuid(),
    external_id: Type.Optional(Text()),
    email: Type.Optional(Text()),
    name: Type.Optional(Text()),
    phone: Type.Optional(Text()),
  }),
});

export const contactEvents = [ContactCreated, ContactUpdated] as const;
export type ContactEvent = EventOf<(typeof contactEvents)[number]>;
