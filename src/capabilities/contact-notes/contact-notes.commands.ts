import type { CommandSpec } from '../../commands/command.js';
import { decideCreateNote, decideDeleteNote, type NotedContact } from './contact-notes.decider.js';
import type { ContactNoteEvent, NoteAuthor } from './contact-notes.events.js';
import { findNote, notedContact } from './contact-notes.read.js';

export const createNote = (input: {
  noteId: string;
  contactId: string;
  body: string;
  author: NoteAuthor;
}): CommandSpec<NotedContact | null, ContactNoteEvent> => ({
  name: 'CreateContactNote',
  load: (db, ctx) => notedContact(db, ctx.tenantId, input.contactId),
  decide: (contact) => decideCreateNote(input, contact),
});

export const deleteNote = (input: {
  noteId: string;
  contactId: string;
}): CommandSpec<{ contact: NotedContact | null; noteOnContact: boolean }, ContactNoteEvent> => ({
  name: 'DeleteContactNote',
  load: async (db, ctx) => ({
    contact: await notedContact(db, ctx.tenantId, input.contactId),
    noteOnContact: (await findNote(db, ctx.tenantId, input.contactId, input.noteId)) !== undefined,
  }),
  decide: (s) => decideDeleteNote(input, s),
});
