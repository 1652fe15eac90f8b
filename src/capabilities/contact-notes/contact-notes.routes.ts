import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import type { Principal } from '../../api/context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { ERROR } from '../../api/schemas.js';
import type { RouteDef } from '../../api/routes.js';
import { NotFound } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { CoreDeps } from '../capability.js';
import { contactErased, findContactRow } from '../contacts/index.js';
import { createNote, deleteNote } from './contact-notes.commands.js';
import type { NoteAuthor } from './contact-notes.events.js';
import { contactNoteSchema, deletedNoteSchema, findNote, noteList, notesOf, renderNote, type ContactNoteRow, type DeletedNote } from './contact-notes.read.js';

export const NOTE_MAX_LENGTH = 20_000;

/** An erased contact's notes answer as the contact does: 410 contact_erased. */
const gone = { 410: ERROR };

const NewNote = Type.Object({ body: Type.String({ minLength: 1, maxLength: NOTE_MAX_LENGTH, pattern: '\\S' }) }, { additionalProperties: false });

const author = (p: Principal): NoteAuthor => (p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId });

export function contactNotesRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;

  return [
    listRoute<ContactNoteRow, Record<string, never>, '/contacts/:id/notes'>({
      path: '/contacts/:id/notes',
      permission: 'contacts:read',
      summary: "A contact's notes, newest first",
      item: contactNoteSchema,
      responses: gone,
      spec: noteList,
      // An unknown contact is 404, not an empty list; an erased one is 410, as its every read (its notes went with it).
      async before({ principal, params }) {
        const contact = isUuid(params.id) ? await findContactRow(db, principal.tenantId, params.id) : undefined;
        if (!contact) throw new NotFound('contact');
        if (contact.erased_at) throw contactErased(contact.id);
      },
      query: ({ principal, params }) => notesOf(db, principal.tenantId, params.id),
      render: renderNote,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/contacts/:id/notes',
      permission: 'contacts:write',
      summary: 'Write a note on a contact',
      body: NewNote,
      responses: gone,
      command: ({ principal, params, body, write }) =>
        createNote({ noteId: write.ids.uuid(), contactId: params.id, body: body.body, author: author(principal) }),
      answer: {
        status: 201,
        schema: contactNoteSchema,
        read: async (tx, [created], { principal, params }) =>
          renderNote((await findNote(tx, principal.tenantId, params.id, (created!.payload as { note_id: string }).note_id))!),
      },
    }),

    getRoute({
      path: '/contacts/:id/notes/:note_id',
      permission: 'contacts:read',
      summary: 'Get a note on a contact',
      resource: contactNoteSchema,
      what: 'note',
      find: ({ principal, params }) => findNote(db, principal.tenantId, params.id, params.note_id),
      render: renderNote,
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/contacts/:id/notes/:note_id',
      permission: 'contacts:write',
      summary: 'Delete a note on a contact',
      responses: gone,
      command: ({ params }) => deleteNote({ noteId: params.note_id, contactId: params.id }),
      answer: {
        status: 200,
        schema: deletedNoteSchema,
        read: async (_tx, _events, { params }): Promise<DeletedNote> => ({ type: 'contact_note', id: params.note_id, deleted: true }),
      },
    }),
  ];
}
