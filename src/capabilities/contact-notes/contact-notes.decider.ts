// Pure rules of notes on a contact: a note goes on a contact of the workspace
// that is not erased (410 contact_erased, as every change of an erased
// contact), at most MAX_NOTES_PER_CONTACT of them; a note is deleted from the
// contact it is on. Loaded under the workspace's append lock, so two notes
// cannot both take the last place.
import { NotFound, Unprocessable } from '../../platform/errors.js';
import { contactErased } from '../contacts/index.js';
import type { ContactNoteEvent, NoteAuthor } from './contact-notes.events.js';

export const MAX_NOTES_PER_CONTACT = 1000;

/** The contact a note is about, as the decision needs it. */
export interface NotedContact {
  id: string;
  erased: boolean;
  notes: number;
}

export function decideCreateNote(
  cmd: { noteId: string; contactId: string; body: string; author: NoteAuthor },
  contact: NotedContact | null,
): ContactNoteEvent[] {
  if (!contact) throw new NotFound('contact');
  if (contact.erased) throw contactErased(contact.id);
  if (contact.notes >= MAX_NOTES_PER_CONTACT)
    throw new Unprocessable('limit_reached', `A contact holds at most ${MAX_NOTES_PER_CONTACT} notes; delete one first.`);
  return [
    {
      type: 'contact_note.created',
      aggregate_type: 'contact',
      aggregate_id: contact.id,
      payload: { note_id: cmd.noteId, contact_id: contact.id, body: cmd.body, author: cmd.author },
    },
  ];
}

export function decideDeleteNote(cmd: { noteId: string; contactId: string }, s: { contact: NotedContact | null; noteOnContact: boolean }): ContactNoteEvent[] {
  if (!s.contact) throw new NotFound('contact');
  if (s.contact.erased) throw contactErased(s.contact.id);
  if (!s.noteOnContact) throw new NotFound('note');
  return [{ type: 'contact_note.deleted', aggregate_type: 'contact', aggregate_id: s.contact.id, payload: { note_id: cmd.noteId, contact_id: s.contact.id } }];
}
