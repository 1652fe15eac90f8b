// Jobs: work a request asks for that is too large to do within it, run in the
// background with its progress readable. Today one kind: the same action
// (assign, team, close, open, snooze, priority, tags) on up to 10,000
// conversations at once, as Zendesk's and Intercom's bulk updates and
// Chatwoot's bulk actions. Each conversation is changed by its own command,
// exactly once even across crashes, acting as the job, within the
// workspace's rate budget.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { jobEvents } from './jobs.events.js';
import { jobsProjector } from './jobs.projection.js';
import { jobsRoutes } from './jobs.routes.js';
import { jobsWorker } from './jobs.worker.js';

export type { JobEvent } from './jobs.events.js';
export { jobsWorker } from './jobs.worker.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  too_many_conversations: { status: 422, when: 'A bulk action whose query matches more than 10,000 conversations.' },
  no_conversations: { status: 422, when: 'A bulk action whose query matches no conversation.' },
  job_finished: { status: 409, when: 'Canceling a job that has completed or was canceled.' },
});

export const jobsModule = defineModule({
  name: 'jobs',
  errors,
  events: jobEvents,
  projectors: [jobsProjector],
  tables: ['job_items'],
  routes: jobsRoutes,
  workers: (deps) => [jobsWorker(deps)],
});
