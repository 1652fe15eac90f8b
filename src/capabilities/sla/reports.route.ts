// GET /api/reports/response_times: count, median and p90 of first-response and
// resolution seconds of the conversations created in a period, in calendar time and
// in business time (the workspace's business hours as they are now). Read from the
// statistics projection; business seconds are computed here, per conversation.
import type { Db } from '../../commands/command.js';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, integer, nullable, object } from '../../api/schemas.js';
import { BadRequest } from '../../platform/errors.js';
import { isInstant } from '../../platform/query/filter.js';
import { businessCalendar, secondsBetween } from '../business-hours/index.js';
import { conversationFacts } from '../conversations/index.js';
import type { CoreDeps } from '../capability.js';

/** The most conversations a report reads (a period wider than that counts its first ones, by creation). */
export const REPORT_ROWS = 100_000;
const INSTANT = { type: 'string', format: 'date-time' };

/** Nearest-rank percentile of sorted values; null for none. */
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]! : null);
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { count: s.length, median_seconds: percentile(s, 50), p90_seconds: percentile(s, 90) };
};

interface Filters {
  since?: string;
  until?: string;
  teamId?: string;
  assigneeId?: string;
}

export async function responseTimes(db: Db, tenantId: string, f: Filters) {
  const q = db('conversation_statistics as s')
    .join(conversationFacts(db).as('c'), function () {
      this.on('c.tenant_id', 's.tenant_id').andOn('c.id', 's.conversation_id');
    })
    .where('s.tenant_id', tenantId)
    .whereNotNull('s.created_at');
  if (f.since) q.andWhere('s.created_at', '>=', f.since);
  if (f.until) q.andWhere('s.created_at', '<', f.until);
  if (f.teamId) q.andWhere('c.team_id', f.teamId);
  if (f.assigneeId) q.andWhere('c.assignee_id', f.assigneeId);
  const [rows, calendar] = await Promise.all([
    q
      .orderBy('s.created_at')
      .limit(REPORT_ROWS)
      .select<{ created_at: Date; first_response_at: Date | null; last_closed_at: Date | null }[]>('s.created_at', 's.first_response_at', 's.last_closed_at'),
    businessCalendar(db, tenantId),
  ]);
  const measure = (to: 'first_response_at' | 'last_closed_at') => {
    const done = rows.filter((r) => r[to] !== null);
    return {
      calendar: summary(done.map((r) => secondsBetween(null, r.created_at, r[to]!))),
      business: calendar ? summary(done.map((r) => secondsBetween(calendar, r.created_at, r[to]!))) : null,
    };
  };
  return {
    type: 'response_times_report' as const,
    conversations: rows.length,
    first_response: measure('first_response_at'),
    resolution: measure('last_closed_at'),
  };
}

const stats = object({ count: integer({ minimum: 0 }), median_seconds: nullable(integer({ minimum: 0 })), p90_seconds: nullable(integer({ minimum: 0 })) });
const measureSchema = object(
  { calendar: stats, business: nullable(stats) },
  { description: 'Over the conversations that have one; business: null until business hours are set.' },
);
export const responseTimesSchema = object(
  { type: constant('response_times_report'), conversations: integer({ minimum: 0 }), first_response: measureSchema, resolution: measureSchema },
  {
    title: 'ResponseTimesReport',
    description:
      'First-response and resolution seconds (creation to the first teammate reply; creation to the last close) of the conversations created in the period: count, median and p90 (nearest rank), in calendar and in business time.',
  },
);

export const responseTimesRoute = (deps: CoreDeps): RouteDef =>
  route<unknown, { since?: string; until?: string; team_id?: string; assignee_id?: string }>({
    method: 'get',
    path: '/reports/response_times',
    permission: 'conversations:read',
    summary: 'Response times: count, median and p90 of first response and resolution, calendar and business time',
    query: {
      additionalProperties: false,
      properties: {
        since: { ...INSTANT, description: 'Conversations created at or after this instant.' },
        until: { ...INSTANT, description: 'Conversations created before this instant.' },
        team_id: { type: 'string', minLength: 1, maxLength: 200, description: 'Only conversations of this team (now).' },
        assignee_id: { type: 'string', format: 'uuid', description: 'Only conversations assigned to this member (now).' },
        workspace: { type: 'string', maxLength: 200 },
      },
    },
    responses: { 200: responseTimesSchema },
    async handle({ principal, query }) {
      for (const k of ['since', 'until'] as const) {
        const v = query[k];
        if (v !== undefined && !isInstant(v))
          throw new BadRequest('invalid_field', `${k} must be an ISO 8601 instant with a time and an offset (years 1 to 9999).`, k);
      }
      const body = await responseTimes(deps.db, principal.tenantId, {
        since: query.since,
        until: query.until,
        teamId: query.team_id,
        assigneeId: query.assignee_id,
      });
      return { status: 200, body };
    },
  });
