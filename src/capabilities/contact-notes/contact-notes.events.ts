import { defineEvent, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

/** Who wrote a note: a member in person, or an API key (acting as its member). */
export const NOTE_AUTHOR_TYPES = ['member', 'api_key'] as const;

export const ContactNoteCreated = defineEvent({
  type: 'contact_note.created',
  aggregate_type: 'contact',
  description:
    "A teammate wrote a note on a contact (`aggregate_id` is the contact, so the note is in the contact's history). Its `body` is personal data, sealed under the note's data key, which the contact's erasure destroys: it reads as null everywhere from then on.",
  personal: { kind: 'contact_note', id: 'note_id', fields: ['body'], owner: { kind: 'contact', id: 'contact_id' }, fresh: true },
  payload: payload({
    note_id: Uuid(),
    contact_id: Uuid(),
    body: Personal(Text()),
    author: payload({ type: Type.Union(NOTE_AUTHOR_TYPES.map((t) => Type.Literal(t))), id: Text() }),
  }),
});

export const ContactNoteDeleted = defineEvent({
  type: 'contact_note.deleted',
  aggregate_type: 'contact',
  description:
    "A note on a contact was deleted. Ids only; the note is gone from the contact's notes (its body stays sealed in the log until the contact is erased).",
  payload: payload({ note_id: Uuid(), contact_id: Uuid() }),
});

export const contactNoteEvents = [ContactNoteCreated, ContactNoteDeleted] as const;
export type ContactNoteEvent = EventOf<(typeof contactNoteEvents)[number]>;
export type NoteAuthor = EventOf<typeof ContactNoteCreated>['payload']['author'];
