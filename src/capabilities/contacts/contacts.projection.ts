import type { Projector } from '../../projections/projector.js';
import type { ContactEvent } from './contacts.events.js';

export const CONTACTS = {
  table: 'contacts',
  key: ['tenant_id', 'id'],
  columns: { tenant_id: 'uuid', id: 'uuid', external_id: 'text', channel_id: 'uuid', email: 'text', name: 'text', phone: 'text', custom_attributes: 'jsonb', archived_at: 'timestamptz', erased_at: 'timestamptz', created_at: 'timestamptz', updated_at: 'timestamptz' },
} as const;

/** A contact's personal columns as an erasure leaves them (and as a rebuild opens them afterwards). */
const ERASED_FIELDS = { external_id: null, email: null, name: null, phone: null, custom_attributes: null };

export const contactsProjector: Projector<ContactEvent> = {
  name: 'contacts',
  handles: ['contact.created', 'contact.updated', 'contact.erased'],
  tables: ['contacts'],
  project(events, writes) {
    const contacts = writes.table(CONTACTS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.contact_id };
      switch (e.type) {
        case 'contact.created': {
          const { contact_id: _, ...fields } = e.payload;
          contacts.insert({ ...key, ...fields, created_at: e.created_at, updated_at: e.created_at });
          break;
        }
        case 'contact.updated': {
          const { contact_id: _, ...fields } = e.payload;
          contacts.patch(key, { ...fields, updated_at: e.created_at });
          break;
        }
        case 'contact.erased':
          // The row stays (410 contact_erased, and conversations keep their contact_id); what it said goes.
          contacts.patch(key, { ...ERASED_FIELDS, erased_at: e.created_at, updated_at: e.created_at });
          break;
        default: {
          const never: never = e;
          throw new Error(`contacts projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
