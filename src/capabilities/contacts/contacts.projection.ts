import type { Projector } from '../../projections/projector.js';
import type { ContactEvent } from './contacts.events.js';

export const CONTACTS = {
  table: 'contacts',
  key: ['tenant_id', 'id'],
  columns: { tenant_id: 'uuid', id: 'uuid', external_id: 'text', channel_id: 'uuid', email: 'text', name: 'text', phone: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
} as const;

export const contactsProjector: Projector<ContactEvent> = {
  name: 'contacts',
  handles: ['contact.created', 'contact.updated'],
  tables: ['contacts'],
  project(events, writes) {
    const contacts = writes.table(CONTACTS);
    for (const e of events) {
      const { contact_id, ...fields } = e.payload;
      const key = { tenant_id: e.tenant_id, id: contact_id };
      switch (e.type) {
        case 'contact.created':
          contacts.insert({ ...key, ...fields, created_at: e.created_at, updated_at: e.created_at });
          break;
        case 'contact.updated':
          contacts.patch(key, { ...fields, updated_at: e.created_at });
          break;
        default: {
          const never: never = e;
          throw new Error(`contacts projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
