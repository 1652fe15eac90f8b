// SLA policies, the SLA of each conversation and its response statistics (issue 34,
// items 4 and 5). Policies are tried in order, the first matching applies; a worker
// settles targets at their deadlines (see sla.decider.ts for the rules and
// sla.worker.ts for how a breach lands once across processes). A conversation's
// answer shows its `sla` and `statistics`: this module adds them to conversations'
// `conversationFields` (sla imports conversations, not the reverse).
import { nullable } from '../../api/schemas.js';
import { addTo } from '../additions.js';
import { defineModule } from '../capability.js';
import { conversationFields } from '../conversations/index.js';
import { defineErrors } from '../../platform/errors.js';
import { slaEvents } from './sla.events.js';
import { slaProjector } from './sla.projection.js';
import { statisticsProjector } from './statistics.projection.js';
import { slaRoutes } from './sla.routes.js';
import { slaWorker } from './sla.worker.js';
import { conversationMetrics } from './sla.read.js';
import { slaSchema, statisticsSchema } from './sla.schemas.js';

export type { SlaEvent } from './sla.events.js';
export { conversationMetrics, conversationSla, conversationStatistics } from './sla.read.js';
export { slaSchema, statisticsSchema } from './sla.schemas.js';
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
  adds: [
    addTo(conversationFields, {
      schema: {
        sla: slaSchema,
        statistics: nullable(statisticsSchema, {
          description: 'Its response statistics; null only in a past state (`?as_of_seq=`), which they are not kept for.',
        }),
      },
      // Not kept for the past: in a past state both are null, as the schemas say.
      none: { sla: null, statistics: null },
      read: conversationMetrics,
    }),
  ],
  routes: slaRoutes,
  workers: (deps) => [slaWorker(deps)],
});
