import { commandRoute } from '../../api/command-route.js';
import type { Principal } from '../../api/context.js';
import { route, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import { BadRequest } from '../../platform/errors.js';
import { isInstant } from '../../platform/query/filter.js';
import type { CoreDeps } from '../capability.js';
import { rateConversation, type RatedConversationLookup } from './csat.commands.js';
import { csatReport, csatReportSchema, renderRating } from './csat.read.js';
import { Rating, ratingAnswerSchema } from './csat.schemas.js';
import { bridgeRatingRoute, type ThreadLookup } from './csat.bridge.js';

const rater = (p: Principal) => (p.via === 'api_key' ? { type: 'api_key' as const, id: p.keyId! } : { type: 'member' as const, id: p.memberId });

const INSTANT = { type: 'string', format: 'date-time' };

export function csatRoutes(deps: CoreDeps, lookups: { conversation: RatedConversationLookup; thread: ThreadLookup }): RouteDef[] {
  const { conversation } = lookups;
  const { db } = deps;
  return [
    bridgeRatingRoute(deps, lookups),
    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/ratings',
      permission: 'conversations:write',
      summary: "Record the customer's satisfaction rating (CSAT, 1 to 5); a later rating replaces it",
      body: Rating,
      // `contact_erased`: the conversation's contact was erased; it takes no new rating.
      responses: { 410: ERROR },
      command: (call) =>
        rateConversation(
          {
            conversationId: call.params.id,
            ratingId: call.write.ids.uuid(),
            score: call.body.score,
            remark: call.body.remark ?? null,
            ratedBy: rater(call.principal),
          },
          conversation,
        ),
      answer: {
        status: 201,
        schema: ratingAnswerSchema,
        read: async (_tx, [rated]) => {
          const p = rated!.payload;
          return {
            ...renderRating({ id: p.rating_id, score: p.score, rated_at: new Date(rated!.created_at).toISOString(), source: 'api' }, p.remark),
            conversation_id: p.conversation_id,
          };
        },
      },
    }) as RouteDef,

    route<unknown, { since?: string; until?: string; team_id?: string; assignee_id?: string }>({
      method: 'get',
      path: '/reports/csat',
      permission: 'conversations:read',
      summary: 'CSAT: ratings overall, by team and by assignee (those the conversation had when rated)',
      query: {
        additionalProperties: false,
        properties: {
          since: { ...INSTANT, description: 'Ratings given at or after this instant.' },
          until: { ...INSTANT, description: 'Ratings given before this instant.' },
          team_id: { type: 'string', minLength: 1, maxLength: 200, description: 'Only ratings of conversations that had this team.' },
          assignee_id: { type: 'string', format: 'uuid', description: 'Only ratings of conversations that had this assignee.' },
          workspace: { type: 'string', maxLength: 200 },
        },
      },
      responses: { 200: csatReportSchema },
      async handle({ principal, query }) {
        // The format lets through instants Postgres cannot hold (year 0): refused here, before any query.
        for (const k of ['since', 'until'] as const) {
          const v = query[k];
          if (v !== undefined && !isInstant(v))
            throw new BadRequest('invalid_field', `${k} must be an ISO 8601 instant with a time and an offset (years 1 to 9999).`, k);
        }
        const body = await csatReport(db, principal.tenantId, { since: query.since, until: query.until, teamId: query.team_id, assigneeId: query.assignee_id });
        return { status: 200, body };
      },
    }),
  ];
}
