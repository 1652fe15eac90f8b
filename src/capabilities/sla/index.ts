// SLA policies, the SLA of each conversation and its response statistics (issue 34,
// items 4 and 5). Policies are tried in order, the first matching applies; a worker
// settles targets at their deadlines (see sla.decider.ts for the rules and
// sla.worker.ts for how a breach lands once across processes). Conversations show a
// conversation's `sla` and `statistics` through conversationMetrics, handed to it by
// src/capabilities/index.ts (sla imports conversations, not the reverse).
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { slaEvents } from './sla.events.js';
import { slaProjector } from './sla.projection.js';
import { statisticsProjector } from './statistics.projection.js';
import { slaRoutes } from './sla.routes.js';
import { slaWorker } from './sla.worker.js';

export type { SlaEvent } from './sla.events.js';
export { conversationMetrics, conversationSla, conversationStatistics, slaSchema, statisticsSchema } from './sla.read.js';
export { slaWorker, SLA_POLL_MS, type SlaWorker } from './sla.worker.js';

const errors = defineErrors({
  limit_reached: { status: 422, when: 'Creating more SLA policies than a workspace may keep (100).' },
});

export const slaModule = defineModule({
  name: 'sla',
  errors,
  events: slaEvents,
  projectors: [slaProjector, statisticsProjector],
  tables: ['sla_watch'],
  routes: slaRoutes,
  workers: (deps) => [slaWorker(deps)],
});
