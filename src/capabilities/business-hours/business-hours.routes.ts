import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { CommandSpec } from '../../commands/command.js';
import type { CoreDeps } from '../capability.js';
import { DAYS } from './business-hours.calendar.js';
import { decideSetBusinessHours } from './business-hours.decider.js';
import type { BusinessHoursEvent } from './business-hours.events.js';
import { businessHoursSchema, findBusinessHours, renderBusinessHours } from './business-hours.read.js';

const HHMM = Type.String({ pattern: '^\\d\\d:\\d\\d$' });
const BusinessHoursBody = Type.Object(
  {
    time_zone: Type.String({ minLength: 1, maxLength: 64 }),
    intervals: Type.Array(
      Type.Object({ day: Type.Unsafe<(typeof DAYS)[number]>({ type: 'string', enum: [...DAYS] }), start: HHMM, end: HHMM }, { additionalProperties: false }),
      { maxItems: 70 },
    ),
    holidays: Type.Array(Type.String({ pattern: '^\\d{4}-\\d\\d-\\d\\d$' }), { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export function businessHoursRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  return [
    route({
      method: 'get',
      path: '/settings/business_hours',
      permission: 'settings:read',
      summary: "Get the workspace's business hours (time zone, weekly intervals, holidays)",
      responses: { 200: businessHoursSchema },
      async handle({ principal }) {
        return { status: 200, body: renderBusinessHours(await findBusinessHours(db, principal.tenantId)) };
      },
    }),
    commandRoute(deps, {
      method: 'put',
      path: '/settings/business_hours',
      permission: 'settings:write',
      summary: "Set the workspace's business hours (the whole calendar: an IANA time zone, weekly intervals, holidays)",
      body: BusinessHoursBody,
      command: (call): CommandSpec<null, BusinessHoursEvent> => ({
        name: 'SetBusinessHours',
        load: async () => null,
        decide: (_s, ctx) => decideSetBusinessHours(call.body, ctx.tenantId),
      }),
      answer: {
        status: 200,
        schema: businessHoursSchema,
        read: async (tx, _e, call) => renderBusinessHours(await findBusinessHours(tx, call.principal.tenantId)),
      },
    }),
  ];
}
