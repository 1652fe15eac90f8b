// Pure rules of a workspace's business hours: a zone the IANA database knows,
// intervals whose end is after their start on the same day, real dates as holidays.
import { BadRequest } from '../../platform/errors.js';
import { isTimeZone, type BusinessCalendar } from './business-hours.calendar.js';
import type { BusinessHoursEvent } from './business-hours.events.js';

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const isDate = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
};

export function decideSetBusinessHours(cal: BusinessCalendar, tenantId: string): BusinessHoursEvent[] {
  if (!isTimeZone(cal.time_zone)) throw new BadRequest('invalid_time_zone', `"${cal.time_zone}" is not an IANA time zone (e.g. Europe/Paris).`, 'time_zone');
  cal.intervals.forEach((i, n) => {
    const [s, e] = [minutes(i.start), minutes(i.end)];
    if (s >= 24 * 60 || e > 24 * 60 || Number(i.start.slice(3)) > 59 || Number(i.end.slice(3)) > 59)
      throw new BadRequest('invalid_field', 'A time is HH:MM from 00:00 to 23:59 (24:00 as an end).', `intervals/${n}`);
    if (e <= s) throw new BadRequest('invalid_field', 'An interval ends after it starts, on the same day.', `intervals/${n}`);
  });
  cal.holidays.forEach((d, n) => {
    if (!isDate(d)) throw new BadRequest('invalid_field', 'A holiday is a date, YYYY-MM-DD.', `holidays/${n}`);
  });
  return [
    {
      type: 'business_hours.set',
      aggregate_type: 'business_hours',
      aggregate_id: tenantId,
      payload: { time_zone: cal.time_zone, intervals: cal.intervals, holidays: [...new Set(cal.holidays)].sort() },
    },
  ];
}
