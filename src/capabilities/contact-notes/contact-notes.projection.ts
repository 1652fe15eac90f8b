import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { ContactEvent } from '../contacts/index.js';
import type { ContactNoteEvent } from './contact-notes.events.js';

export const CONTACT_NOTES = tableSpec({
  table: 'contact_notes',
  key: ['tenant_id', 'id'],
  nullable: ['body'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    contact_id: 'uuid',
    body: 'text',
    author_type: 'text',
    author_id: 'text',
    created_at: 'timestamptz',
  },
} as const);

/** A contact's notes, all at once: what the contact's erasure deletes. */
const NOTES_OF_CONTACT = tableSpec({
  table: 'contact_notes',
  key: ['tenant_id', 'contact_id'],
  matches: 'many',
  columns: { tenant_id: 'uuid', contact_id: 'uuid' },
} as const);

export const contactNotesProjector: Projector<ContactNoteEvent | Extract<ContactEvent, { type: 'contact.erased' | 'contact.merged' }>> = {
  name: 'contact-notes',
  handles: ['contact_note.created', 'contact_note.deleted', 'contact.erased', 'contact.merged'],
  tables: ['contact_notes'],
  project(events, writes) {
    const notes = writes.table(CONTACT_NOTES);
    const ofContact = writes.table(NOTES_OF_CONTACT);
    // Notes written in this pass, by contact: an erasure in the same pass (a rebuild) deletes them through their
    // own batch, where the insert folds away; the delete of many rows only sees rows committed before the pass.
    const written = new Map<string, Set<string>>();
    for (const e of events) {
      switch (e.type) {
        case 'contact_note.created': {
          const p = e.payload;
          notes.insert({
            tenant_id: e.tenant_id,
            id: p.note_id,
            contact_id: p.contact_id,
            body: p.body,
            author_type: p.author.type,
            author_id: p.author.id,
            created_at: e.created_at,
          });
          const of = `${e.tenant_id}|${p.contact_id}`;
          written.set(of, (written.get(of) ?? new Set()).add(p.note_id));
          break;
        }
        case 'contact_note.deleted':
          notes.delete({ tenant_id: e.tenant_id, id: e.payload.note_id });
          written.get(`${e.tenant_id}|${e.payload.contact_id}`)?.delete(e.payload.note_id);
          break;
        case 'contact.erased': {
          // The notes are the contact's personal data: their keys went with the contact's, and their rows go now.
          const of = `${e.tenant_id}|${e.payload.contact_id}`;
          for (const id of written.get(of) ?? []) notes.delete({ tenant_id: e.tenant_id, id });
          written.delete(of);
          ofContact.delete({ tenant_id: e.tenant_id, contact_id: e.payload.contact_id });
          break;
        }
        case 'contact.merged': {
          // The merged contact's notes are the survivor's now: those of this pass by their rows, the others by one statement.
          const from = `${e.tenant_id}|${e.payload.merged_id}`;
          const to = `${e.tenant_id}|${e.payload.contact_id}`;
          for (const id of written.get(from) ?? []) {
            notes.patch({ tenant_id: e.tenant_id, id }, { contact_id: e.payload.contact_id });
            written.set(to, (written.get(to) ?? new Set()).add(id));
          }
          written.delete(from);
          writes.add({
            sql: 'UPDATE contact_notes SET contact_id = ?::uuid WHERE tenant_id = ?::uuid AND contact_id = ?::uuid',
            bindings: [e.payload.contact_id, e.tenant_id, e.payload.merged_id],
          });
          break;
        }
        default: {
          const never: never = e;
          throw new Error(`contact-notes projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
