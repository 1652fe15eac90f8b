import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import type { Principal } from '../../api/context.js';
import { route, type RouteDef } from '../../api/routes.js';
import { extend, uuid } from '../../api/schemas.js';
import type { CoreDeps } from '../capability.js';
import { rateConversation, type RatedConversationLookup } from './csat.commands.js';
import { csatReport, csatReportSchema, ratingSchema, renderRating } from './csat.read.js';

export const Rating = Type.Object(
  {
    score: Type.Integer({ minimum: 1, maximum: 5, description: '1 (very dissatisfied) to 5 (very satisfied).' }),
    remark: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 2000, description: "The customer's words (personal data)." })),
  },
  { additionalProperties: false },
);

export const ratingAnswerSchema = extend(ratingSchema, { conversation_id: uuid }, { title: 'ConversationRatingGiven' });

const rater = (p: Principal) => (p.via === 'api_key' ? { type: 'api_key' as const, id: p.keyId! } : { type: 'member' as const, id: p.memberId });

const INSTANT = { type: 'string', format: 'date-time' };

export function csatRoutes(deps: CoreDeps, conversation: RatedConversationLookup): RouteDef[] {
  const { db } = deps;
  return [
    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/ratings',
      permission: 'conversations:write',
      summary: "Record the customer's satisfaction rating (CSAT, 1 to 5); a later rating replaces it",
      body: Rating,
      command: (call) =>
        rateConversation(
          {
            conversationId: call.params.id!,
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
        const body = await csatReport(db, principal.tenantId, { since: query.since, until: query.until, teamId: query.team_id, assigneeId: query.assignee_id });
        return { status: 200, body };
      },
    }),
  ];
}
