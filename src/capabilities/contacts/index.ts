// Contacts: the customers conversations are with. Found or filled from what a
// bridge or teammate asserts; the contacts API builds on this folder.
import { defineModule } from '../capability.js';
import { contactEvents } from './contacts.events.js';
import { contactsProjector } from './contacts.projection.js';

export { decideFindOrFillContact, type ContactInput, type ContactView } from './contacts.decider.js';
export { contactErasure, findContact } from './contacts.read.js';
export type { ContactEvent } from './contacts.events.js';

export const contactsModule = defineModule({ name: 'contacts', events: contactEvents, personal: [{ type: 'contact', kind: 'contact', fields: ['external_id', 'email', 'name', 'phone', 'custom_attributes'] }], projectors: [contactsProjector] });
