import type { Projector } from '../../projections/projector.js';

export const contactsProjector: Projector = {
  name: 'contacts',
  handles: ['contact.created', 'contact.updated'],
  tables: ['contacts'],
  async project(db, events) {
    for (const e of events) {
      const { contact_id, ...fields } = e.payload as Record<string, string | null> & { contact_id: string };
      if (e.type === 'contact.created') {
        await db('contacts')
          .insert({ tenant_id: e.tenant_id, id: contact_id, ...fields, created_at: e.created_at, updated_at: e.created_at })
          .onConflict(['tenant_id', 'id'])
          .merge();
      } else {
        await db('contacts').where({ tenant_id: e.tenant_id, id: contact_id }).update({ ...fields, updated_at: e.created_at });
      }
    }
  },
};
