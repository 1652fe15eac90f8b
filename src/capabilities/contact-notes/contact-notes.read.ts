import type { Db } from '../../commands/command.js';
import { type ListSpec, byCreatedAt } from '../../api/pagination/list.js';
import { constant, dateTime, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { RowOf } from '../../projections/table-batch.js';
import { findContactRow } from '../contacts/index.js';
import type { NotedContact } from './contact-notes.decider.js';
import { NOTE_AUTHOR_TYPES } from './contact-notes.events.js';
import type { CONTACT_NOTES } from './contact-notes.projection.js';

/** A row of `contact_notes` (RowOf), its author's type narrowed. */
export type ContactNoteRow = RowOf<typeof CONTACT_NOTES> & { author_type: (typeof NOTE_AUTHOR_TYPES)[number] };

export const notesOf = (db: Db, tenantId: string, contactId: string) => db('contact_notes').where({ tenant_id: tenantId, contact_id: contactId });

export async function findNote(db: Db, tenantId: string, contactId: string, id: string): Promise<ContactNoteRow | undefined> {
  return isUuid(id) && isUuid(contactId) ? notesOf(db, tenantId, contactId).andWhere({ id }).first() : undefined;
}

/** The contact a note command is about: whether it exists, is erased, and how many notes it holds. */
export async function notedContact(db: Db, tenantId: string, contactId: string): Promise<NotedContact | null> {
  if (!isUuid(contactId)) return null;
  // The contact through its own capability's read (contacts owns its table); the count is this one's.
  const [contact, count] = await Promise.all([findContactRow(db, tenantId, contactId), notesOf(db, tenantId, contactId).count<{ n: number }[]>({ n: '*' })]);
  return contact ? { id: contact.id, erased: contact.erased_at !== null, notes: Number(count[0]?.n ?? 0) } : null;
}

export const noteList: ListSpec = byCreatedAt('contact_note', 'desc', { idIsUuid: true });

export const contactNoteSchema = object(
  {
    type: constant('contact_note'),
    id: uuid,
    contact_id: uuid,
    body: nullable(str({ description: "Personal data: sealed in the log under the note's key, which the contact's erasure destroys." })),
    author: object(
      { type: oneOfStrings(NOTE_AUTHOR_TYPES), id: str() },
      { title: 'ContactNoteAuthor', description: 'Who wrote it: a member, or an API key (acting as its member).' },
    ),
    created_at: dateTime,
  },
  { title: 'ContactNote' },
);
export type ContactNote = Static<typeof contactNoteSchema>;

export const renderNote = (r: ContactNoteRow): ContactNote => ({
  type: 'contact_note',
  id: r.id,
  contact_id: r.contact_id,
  body: r.body,
  author: { type: r.author_type, id: r.author_id },
  created_at: r.created_at.toISOString(),
});

export const deletedNoteSchema = object({ type: constant('contact_note'), id: uuid, deleted: constant(true) }, { title: 'DeletedContactNote' });
export type DeletedNote = Static<typeof deletedNoteSchema>;
