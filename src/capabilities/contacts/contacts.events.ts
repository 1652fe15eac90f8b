import { defineEvent, Nullable, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';
import { CustomAttributes } from '../companies/index.js';

/** A contact's personal fields: sealed in the log with the contact's data key, null once the contact is erased. */
const PERSONAL = ['external_id', 'email', 'name', 'phone', 'custom_attributes'] as const;

export const ContactCreated = defineEvent({
  type: 'contact.created',
  aggregate_type: 'contact',
  description:
    'A contact (customer) was created, by an inbound post, a teammate-started conversation (`channel_id` names the channel) or the API (`channel_id` null). `custom_attributes` is absent when the contact was found or filled from a conversation.',
  personal: { kind: 'contact', id: 'contact_id', fields: PERSONAL, fresh: true },
  postedFor: { contact: 'contact_id' },
  payload: payload({
    contact_id: Uuid(),
    external_id: Personal(Text()),
    email: Personal(Text()),
    name: Personal(Text()),
    phone: Personal(Text()),
    custom_attributes: Type.Optional(Personal(CustomAttributes())),
    channel_id: Nullable(Uuid()),
  }),
});

export const ContactUpdated = defineEvent({
  type: 'contact.updated',
  aggregate_type: 'contact',
  description:
    'Fields of a contact changed; only the changed fields are in the payload (null clears one), and custom_attributes, when present, is the whole resulting set.',
  personal: { kind: 'contact', id: 'contact_id', fields: PERSONAL },
  postedFor: { contact: 'contact_id' },
  payload: payload({
    contact_id: Uuid(),
    external_id: Type.Optional(Personal(Text())),
    email: Type.Optional(Personal(Text())),
    name: Type.Optional(Personal(Text())),
    phone: Type.Optional(Personal(Text())),
    custom_attributes: Type.Optional(Personal(CustomAttributes())),
  }),
});

export const ContactArchived = defineEvent({
  type: 'contact.archived',
  aggregate_type: 'contact',
  description: 'A contact was archived: still readable by id and listed with `archived=true`, left out of the default list.',
  payload: payload({ contact_id: Uuid() }),
});

export const ContactUnarchived = defineEvent({
  type: 'contact.unarchived',
  aggregate_type: 'contact',
  description: 'An archived contact was brought back into the default list.',
  payload: payload({ contact_id: Uuid() }),
});

export const ContactCompanyAttached = defineEvent({
  type: 'contact.company_attached',
  aggregate_type: 'contact',
  description: "A contact now belongs to a company (`company_id` is the company's `id`). A contact may belong to several companies.",
  payload: payload({ contact_id: Uuid(), company_id: Uuid() }),
});

export const ContactCompanyDetached = defineEvent({
  type: 'contact.company_detached',
  aggregate_type: 'contact',
  description: "A contact no longer belongs to a company (`company_id` is the company's `id`). Deleting a company detaches its contacts without this event.",
  payload: payload({ contact_id: Uuid(), company_id: Uuid() }),
});

export const ContactErased = defineEvent({
  type: 'contact.erased',
  aggregate_type: 'contact',
  description:
    'A contact was erased: their data keys were destroyed, so their personal fields and the content of every part of their conversations read as null everywhere from now on (log, feed, deliveries, stored answers). Ids only: the conversations and parts it made unreadable, and `thread_keys`, a keyed hash of each bridge thread of theirs (channel and thread id, HMAC-SHA256 under a key derived from SERVICE_CHANNELS_SECRET): the tombstones by which a post to an erased thread, replayed or late, is recognised and files nothing.',
  payload: payload({
    contact_id: Uuid(),
    conversation_ids: Type.Array(Uuid()),
    part_ids: Type.Array(Uuid()),
    /** absent in events from before tombstones */
    thread_keys: Type.Optional(Type.Array(Text())),
  }),
});

export const ContactMerged = defineEvent({
  type: 'contact.merged',
  aggregate_type: 'contact',
  description:
    "Another contact (`merged_id`) was merged into this one, the survivor (so the merge is in the survivor's history). The merged contact's conversations (`conversation_ids`) are now the survivor's; what the survivor lacked of its identifiers, custom attributes, companies and tags came over in the events just before (contact.updated, contact.company_attached, contact.tagged), and `external_id_moved` says its external_id did. From now on the merged contact answers 410 `contact_merged` naming the survivor, a message found by its identifiers is filed under the survivor, and erasing the survivor erases it too. Ids only.",
  payload: payload({
    contact_id: Uuid(),
    merged_id: Uuid(),
    conversation_ids: Type.Array(Uuid()),
    external_id_moved: Type.Boolean(),
  }),
});

export const ContactTagged = defineEvent({
  type: 'contact.tagged',
  aggregate_type: 'contact',
  description:
    "A tag was added to a contact (a delta: tagging them again appends nothing). `name` is the tag's name at the time; the catalog has the current one.",
  payload: payload({ contact_id: Uuid(), tag_id: Uuid(), name: Text() }),
});

export const ContactUntagged = defineEvent({
  type: 'contact.untagged',
  aggregate_type: 'contact',
  description: 'A tag was taken off a contact (a delta: untagging what is not there appends nothing). A deleted tag comes off through tag.deleted instead.',
  payload: payload({ contact_id: Uuid(), tag_id: Uuid(), name: Text() }),
});

export const contactEvents = [
  ContactCreated,
  ContactUpdated,
  ContactArchived,
  ContactUnarchived,
  ContactCompanyAttached,
  ContactCompanyDetached,
  ContactErased,
  ContactTagged,
  ContactUntagged,
  ContactMerged,
] as const;
export type ContactEvent = EventOf<(typeof contactEvents)[number]>;
