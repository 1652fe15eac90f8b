// Notes on a contact: what teammates want the next one to know about a
// customer ("prefers e-mail", "VIP since the 2024 renewal"), as Intercom's,
// Zendesk's and Front's contact notes. A note's body is personal data, sealed
// in the log and in stored answers under the note's data key, whose owner is
// the contact: erasing the contact destroys it, and the notes' rows with it.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { contactNoteEvents } from './contact-notes.events.js';
import { contactNotesProjector } from './contact-notes.projection.js';
import { contactNotesRoutes } from './contact-notes.routes.js';

export type { ContactNoteEvent } from './contact-notes.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  limit_reached: { status: 422, when: 'Writing a 1,001st note on a contact.' },
});

export const contactNotesModule = defineModule({
  name: 'contact-notes',
  errors,
  events: contactNoteEvents,
  projectors: [contactNotesProjector],
  // A note in a stored answer (an Idempotency-Key's) is sealed under the note's key too.
  personal: [{ type: 'contact_note', kind: 'contact_note', fields: ['body'] }],
  routes: contactNotesRoutes,
});
