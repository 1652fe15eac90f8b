import { defineEvent, payload, Text, Type, type EventOf } from '../../eventstore/catalogue.js';
import { DAYS } from './business-hours.calendar.js';

// The workspace's business hours: its own schedule, nobody's personal data.

export const BusinessHoursSet = defineEvent({
  type: 'business_hours.set',
  aggregate_type: 'business_hours',
  description:
    "The workspace's business hours were set (the whole calendar): an IANA time zone, weekly intervals in that zone's wall-clock time, and holidays (whole days closed). SLA policies with business_hours true count only this time.",
  payload: payload({
    time_zone: Text(),
    intervals: Type.Array(payload({ day: Type.Union(DAYS.map((d) => Type.Literal(d))), start: Text(), end: Text() })),
    holidays: Type.Array(Text()),
  }),
});

export const businessHoursEvents = [BusinessHoursSet] as const;
export type BusinessHoursEvent = EventOf<(typeof businessHoursEvents)[number]>;
