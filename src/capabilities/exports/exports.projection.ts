// Not a read model: exports are primary data (the module lists the table under
// `tables`, and rebuild never empties it). This projector only carries out
// what an erasure owes the exports: in the erasure's own transaction, every
// export of the erased contact goes, files included.
import type { Projector } from '../../projections/projector.js';
import type { ContactEvent } from './exports.sources.js';
import { tableSpec } from '../../projections/table-batch.js';

type ContactErased = Extract<ContactEvent, { type: 'contact.erased' }>;

/** Matches every export of a contact: the delete is keyed by (tenant, contact). */
const EXPORTS_OF_CONTACT = tableSpec({
  table: 'exports',
  key: ['tenant_id', 'contact_id'],
  matches: 'many',
  columns: { tenant_id: 'uuid', contact_id: 'uuid' },
} as const);

export const exportsProjector: Projector<ContactErased> = {
  name: 'exports',
  handles: ['contact.erased'],
  tables: [],
  project(events, writes) {
    const rows = writes.table(EXPORTS_OF_CONTACT);
    for (const e of events) {
      switch (e.type) {
        case 'contact.erased':
          rows.delete({ tenant_id: e.tenant_id, contact_id: e.payload.contact_id });
          break;
        default: {
          const never: never = e.type;
          throw new Error(`exports projector: unhandled ${String(never)}`);
        }
      }
    }
  },
};
