// Rate limits: the windows every API process counts requests in, beside the log
// (no events, no routes). The limiter itself, its policies and the RateLimit
// fields are the edge's (src/api/rate-limit/); this capability keeps its table
// and deletes the windows that ended.
import { defineModule } from '../capability.js';
import { windowSweeper } from './rate-limits.worker.js';

export { PostgresWindowStore } from './windows.repo.js';
export { windowSweeper } from './rate-limits.worker.js';

export const rateLimitsModule = defineModule({
  name: 'rate-limits',
  tables: ['rate_limit_windows'],
  events: [],
  workers: (deps) => [windowSweeper(deps.db, deps.clock, deps.log)],
});
