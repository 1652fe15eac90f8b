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

export type { OutboundEvent } from './outbound.events.js';
export { recipientSchema, recipientsOfContact } from './outbound.read.js';

export const outboundModule = defineModule({
  name: 'outbound',
  events: outboundEvents,
  projectors: [outboundProjector],
  // the worker's claims on pending recipients (leases), beside the log
  tables: ['outbound_claims'],
  routes: outboundRoutes,
  workers: (deps) => [outboundWorker(deps)],
});
