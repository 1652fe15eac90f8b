import type { Projector } from '../../projections/projector.js';
import type { CompanyEvent } from '../companies/index.js';
import type { TagEvent } from '../tags/index.js';
import type { ContactEvent } from './contacts.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const CONTACTS = tableSpec({
  table: 'contacts',
  key: ['tenant_id', 'id'],
  nullable: ['archived_at', 'channel_id', 'custom_attributes', 'email', 'erased_at', 'external_id', 'merged_into', 'name', 'phone'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    external_id: 'text',
    channel_id: 'uuid',
    email: 'text',
    name: 'text',
    phone: 'text',
    custom_attributes: 'jsonb',
    archived_at: 'timestamptz',
    tag_ids: 'uuid[]',
    erased_at: 'timestamptz',
    merged_into: 'uuid',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

/** Which companies a contact belongs to (migration 017). */
export const CONTACT_COMPANIES = tableSpec({
  table: 'contact_companies',
  key: ['tenant_id', 'contact_id', 'company_id'],
  columns: { tenant_id: 'uuid', contact_id: 'uuid', company_id: 'uuid', attached_at: 'timestamptz' },
} as const);

/** A contact's personal columns as an erasure leaves them (and as a rebuild opens them afterwards). */
const ERASED_FIELDS = { external_id: null, email: null, name: null, phone: null, custom_attributes: null, tag_ids: [] };

type Handled = ContactEvent | Extract<CompanyEvent, { type: 'company.deleted' }> | Extract<TagEvent, { type: 'tag.deleted' }>;

export const contactsProjector: Projector<Handled> = {
  name: 'contacts',
  handles: [
    'contact.created',
    'contact.updated',
    'contact.archived',
    'contact.unarchived',
    'contact.company_attached',
    'contact.company_detached',
    'contact.erased',
    'contact.merged',
    'contact.tagged',
    'contact.untagged',
    'company.deleted',
    'tag.deleted',
  ],
  tables: ['contact_companies', 'contacts'],
  project(events, writes) {
    const contacts = writes.table(CONTACTS);
    const links = writes.table(CONTACT_COMPANIES);
    for (const e of events) {
      switch (e.type) {
        case 'contact.created': {
          const { contact_id: id, ...fields } = e.payload;
          contacts.insert({ tenant_id: e.tenant_id, id, ...fields, tag_ids: [], merged_into: null, created_at: e.created_at, updated_at: e.created_at });
          break;
        }
        case 'contact.updated': {
          const { contact_id: id, ...fields } = e.payload;
          contacts.patch({ tenant_id: e.tenant_id, id }, { ...fields, updated_at: e.created_at });
          break;
        }
        case 'contact.archived':
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { archived_at: e.created_at, updated_at: e.created_at });
          break;
        case 'contact.unarchived':
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { archived_at: null, updated_at: e.created_at });
          break;
        case 'contact.company_attached':
          links.insert({ tenant_id: e.tenant_id, contact_id: e.payload.contact_id, company_id: e.payload.company_id, attached_at: e.created_at });
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { updated_at: e.created_at });
          break;
        case 'contact.company_detached':
          links.delete({ tenant_id: e.tenant_id, contact_id: e.payload.contact_id, company_id: e.payload.company_id });
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { updated_at: e.created_at });
          break;
        case 'contact.erased':
          // The row stays (410 contact_erased, and conversations keep their contact_id); what it said goes.
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { ...ERASED_FIELDS, erased_at: e.created_at, updated_at: e.created_at });
          break;
        // The merged contact keeps its row, pointing at the survivor; an external_id the survivor took is no longer its.
        case 'contact.merged':
          contacts.patch(
            { tenant_id: e.tenant_id, id: e.payload.merged_id },
            { merged_into: e.payload.contact_id, ...(e.payload.external_id_moved ? { external_id: null } : {}), updated_at: e.created_at },
          );
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { updated_at: e.created_at });
          break;
        // Tags are deltas on the stored set (see TableBatch.addTo).
        case 'contact.tagged':
          contacts.addTo({ tenant_id: e.tenant_id, id: e.payload.contact_id }, 'tag_ids', [e.payload.tag_id]);
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { updated_at: e.created_at });
          break;
        case 'contact.untagged':
          contacts.removeFrom({ tenant_id: e.tenant_id, id: e.payload.contact_id }, 'tag_ids', [e.payload.tag_id]);
          contacts.patch({ tenant_id: e.tenant_id, id: e.payload.contact_id }, { updated_at: e.created_at });
          break;
        case 'tag.deleted':
          // The event names the contacts that carried the tag (see tags.decider.ts).
          for (const id of e.payload.contact_ids) contacts.removeFrom({ tenant_id: e.tenant_id, id }, 'tag_ids', [e.payload.id]);
          break;
        case 'company.deleted': {
          // A deleted company's contacts leave it. Links folded earlier in this batch go here; links
          // written by earlier batches go by one statement (no event can name the company afterwards,
          // since a new company gets a new id, so nothing later in the batch can bring a link back).
          for (const p of links.pendingRows()) {
            if (p.key.tenant_id === e.tenant_id && p.key.company_id === e.payload.id) links.delete(p.key);
          }
          writes.add({ sql: 'DELETE FROM contact_companies WHERE tenant_id = ?::uuid AND company_id = ?::uuid', bindings: [e.tenant_id, e.payload.id] });
          break;
        }
        default: {
          const never: never = e;
          throw new Error(`contacts projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
