import type { Db } from '../../commands/command.js';
import { arrayOf, dateTime, nullable, object, oneOfStrings, str, type Static } from '../../api/schemas.js';
import { DAYS, type BusinessCalendar, type Interval } from './business-hours.calendar.js';
import type { BUSINESS_HOURS } from './business-hours.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `business_hours` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type BusinessHoursRow = RowOf<typeof BUSINESS_HOURS> & {
  intervals: Interval[];
};

/** The workspace's calendar; null when none was set (SLA clocks then count every second). */
export async function businessCalendar(db: Db, tenantId: string): Promise<BusinessCalendar | null> {
  const row: BusinessHoursRow | undefined = await db('business_hours').where({ tenant_id: tenantId }).first();
  return row ? { time_zone: row.time_zone, intervals: row.intervals, holidays: row.holidays } : null;
}

export async function findBusinessHours(db: Db, tenantId: string): Promise<BusinessHoursRow | undefined> {
  return db('business_hours').where({ tenant_id: tenantId }).first();
}

export const renderBusinessHours = (row: BusinessHoursRow | undefined): BusinessHours => ({
  type: 'business_hours',
  time_zone: row?.time_zone ?? null,
  intervals: row?.intervals ?? [],
  holidays: row?.holidays ?? [],
  updated_at: row ? row.updated_at.toISOString() : null,
});

export const businessHoursSchema = object(
  {
    type: oneOfStrings(['business_hours'] as const),
    time_zone: nullable(str({ description: 'IANA time zone name; null until business hours are set.' })),
    intervals: arrayOf(object({ day: oneOfStrings(DAYS), start: str({ pattern: '^\\d\\d:\\d\\d$' }), end: str({ pattern: '^\\d\\d:\\d\\d$' }) })),
    holidays: arrayOf(str({ format: 'date' })),
    updated_at: nullable(dateTime),
  },
  { title: 'BusinessHours', description: "The workspace's business hours. Until they are set, business-hours SLA policies count every second." },
);
export type BusinessHours = Static<typeof businessHoursSchema>;
