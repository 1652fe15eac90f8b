// Contacts: the customers conversations are with. Made and changed through the
// contacts API, or found and filled from what a bridge or teammate asserts in a
// conversation, by the same decider. Their personal fields are sealed in the log
// and in stored answers (see src/eventstore/forgettable.ts). The companies a
// contact belongs to live here too (contact_companies), as does
// GET /api/companies/{id}/contacts: contacts read companies, never the reverse.
import { defineModule } from '../capability.js';
import { contactEvents } from './contacts.events.js';
import { contactsProjector } from './contacts.projection.js';
import { contactsRoutes } from './contacts.routes.js';
import { contactHistoryRoute } from './contacts.history.js';
import { defineErrors } from '../../platform/errors.js';

export {
  contactErased,
  contactKeys,
  contactMerged,
  decideFindOrFillContact,
  decideMergeContact,
  type ContactInput,
  type ContactState,
  type ContactView,
} from './contacts.decider.js';
export {
  audienceContacts,
  checkContactQuery,
  companyIdsOf,
  contactErasure,
  contactIdsTagged,
  contactSchema,
  contactsMergedInto,
  contactState,
  findContact,
  findContactRow,
  renderContacts,
  type AudienceContact,
  type ContactRow,
} from './contacts.read.js';
export type { ContactEvent } from './contacts.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  contact_exists: { status: 409, when: 'A contact with this `external_id` or e-mail already exists in the workspace.' },
  identity_required: { status: 400, when: 'A contact without both `email` and `external_id` (created so, or updated to it).' },
  too_many_companies: { status: 422, when: 'Adding a contact to a 101st company.' },
  contact_erased: { status: 410, when: 'The contact was erased: reads and changes of it answer this, for good.' },
  contact_merged: {
    status: 410,
    when: 'The contact was merged into another: reads and changes of it answer this, with `Link: </api/contacts/{survivor}>; rel="canonical"`.',
  },
  merge_target_erased: { status: 422, when: 'Merging a contact into an erased one.' },
  merge_too_large: { status: 422, when: 'A contact merge that would move more than 200 companies and tags together.' },
});

export const contactsModule = defineModule({
  name: 'contacts',
  errors,
  events: contactEvents,
  personal: [{ type: 'contact', kind: 'contact', fields: ['external_id', 'email', 'name', 'phone', 'custom_attributes'], erased: { custom_attributes: {} } }],
  projectors: [contactsProjector],
  routes: (deps) => [...contactsRoutes(deps), contactHistoryRoute(deps)],
});
