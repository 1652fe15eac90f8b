import type { Projector } from '../../projections/projector.js';
import { TableBatch } from '../../projections/table-batch.js';

const CONTACTS = {
  table: 'contacts',
  key: ['tenant_id', 'id'],
  columns: { tenant_id: 'uuid', id: 'uuid', external_id: 'text', channel_id: 'uuid', email: 'text', name: 'text', phone: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
} as const;

export const contactsProjector: Projector = {
  name: 'contacts',
  handles: ['contact.created', 'contact.updated'],
  tables: ['contacts'],
  project(events, writes) {
    const contacts = new TableBatch(CONTACTS);
    for (const e of events) {
      const { contact_id, ...fields } = e.payload as Record<string, string | null> & { contact_id: string };
      const key = { tenant_id: e.tenant_id, id: contact_id };
      if (e.type === 'contact.created') contacts.insert({ ...key, ...fields, created_at: e.created_at, updated_at: e.created_at });
      else contacts.patch(key, { ...fields, updated_at: e.created_at });
    }
    writes.add(...contacts.statements());
  },
};
