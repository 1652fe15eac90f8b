// Outbound collections (campaigns): one message template sent through one
// channel to an audience of contacts, one started conversation per recipient.
// The collection and its recipients are read models of outbound.* events;
// the worker sends (see outbound.worker.ts for the guarantees). Workspace
// content, not personal data: nothing here is sealed (the rendered messages
// are conversation parts, sealed as every part is).
import { defineModule } from '../capability.js';
import { outboundEvents } from './outbound.events.js';
import { outboundProjector } from './outbound.projection.js';
import { outboundRoutes } from './outbound.routes.js';
import { outboundWorker } from './outbound.worker.js';
import { defineErrors } from '../../platform/errors.js';

export type { OutboundEvent } from './outbound.events.js';
export { recipientSchema, recipientsOfContact } from './outbound.read.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  unknown_channel: { status: 400, when: 'An outbound collection sent through a channel the workspace does not have.' },
  unknown_tag: { status: 400, when: 'An audience naming a tag the workspace does not have.' },
  audience_too_large: { status: 422, when: 'An audience larger than one collection may send to.' },
  limit_reached: { status: 422, when: 'Creating more outbound collections than a workspace may keep.' },
  outbound_not_draft: { status: 409, when: 'Changing or sending a collection that is no longer a draft.' },
  outbound_finished: { status: 409, when: 'Cancelling a collection that has finished.' },
});

export const outboundModule = defineModule({
  name: 'outbound',
  errors,
  events: outboundEvents,
  projectors: [outboundProjector],
  // the worker's claims on pending recipients (leases), beside the log
  tables: ['outbound_claims'],
  routes: outboundRoutes,
  workers: (deps) => [outboundWorker(deps)],
});
