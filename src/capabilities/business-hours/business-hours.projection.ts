import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { BusinessHoursEvent } from './business-hours.events.js';

export const BUSINESS_HOURS = tableSpec({
  table: 'business_hours',
  key: ['tenant_id'],
  columns: { tenant_id: 'uuid', time_zone: 'text', intervals: 'jsonb', holidays: 'text[]', updated_at: 'timestamptz' },
} as const);

export const businessHoursProjector: Projector<BusinessHoursEvent> = {
  name: 'business-hours',
  handles: ['business_hours.set'],
  tables: ['business_hours'],
  project(events, writes) {
    const rows = writes.table(BUSINESS_HOURS);
    for (const e of events) {
      const p = e.payload;
      rows.insert({ tenant_id: e.tenant_id, time_zone: p.time_zone, intervals: p.intervals, holidays: p.holidays, updated_at: e.created_at });
    }
  },
};
