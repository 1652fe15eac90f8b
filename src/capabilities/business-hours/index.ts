// Business hours: the workspace's calendar (an IANA zone, weekly intervals,
// holidays) that SLA policies and business-time statistics count in.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { businessHoursEvents } from './business-hours.events.js';
import { businessHoursProjector } from './business-hours.projection.js';
import { businessHoursRoutes } from './business-hours.routes.js';

export * from './business-hours.calendar.js';
export { businessCalendar } from './business-hours.read.js';

const errors = defineErrors({
  invalid_time_zone: { status: 400, when: '`time_zone` of business hours is not a zone of the IANA time-zone database.' },
});

export const businessHoursModule = defineModule({
  name: 'business-hours',
  errors,
  events: businessHoursEvents,
  projectors: [businessHoursProjector],
  routes: businessHoursRoutes,
});
