import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { CoreDeps } from '../capability.js';
import { constant, object, uuid } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import { responseTimesRoute } from './reports.route.js';
import { createPolicy, deletePolicy, updatePolicy } from './sla.commands.js';
import type { PolicyInput } from './sla.decider.js';
import { NotFound } from '../../platform/errors.js';
import { conversationQuerySchema } from '../conversations/index.js';
import {
  conversationSla,
  conversationStatistics,
  slaSchema,
  statisticsSchema,
  allPolicies,
  deletedPolicySchema,
  type DeletedSlaPolicy,
  type SlaPolicyList,
  findPolicy,
  policyListSchema,
  policySchema,
  renderPolicy,
} from './sla.read.js';

const Ids = (item: ReturnType<typeof Type.String>) => Type.Array(item, { minItems: 1, maxItems: 100 });
const Target = Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 31_536_000 });
const PolicyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    match: Type.Optional(
      Type.Object(
        {
          priority: Type.Optional(Ids(Type.String({ enum: ['low', 'normal', 'high', 'urgent'] } as never))),
          team_id: Type.Optional(Ids(Type.String({ minLength: 1, maxLength: 255 }))),
          channel_id: Type.Optional(Ids(Type.String({ format: 'uuid' }))),
          // checked by the filter language (400 invalid_query naming its path under match.query)
          query: Type.Optional(Type.Unsafe<Record<string, unknown>>(conversationQuerySchema)),
        },
        { additionalProperties: false },
      ),
    ),
    first_response_target_seconds: Type.Optional(Target),
    next_response_target_seconds: Type.Optional(Target),
    resolution_target_seconds: Type.Optional(Target),
    business_hours: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const input = (b: {
  name: string;
  match?: PolicyInput['match'];
  first_response_target_seconds?: number | null;
  next_response_target_seconds?: number | null;
  resolution_target_seconds?: number | null;
  business_hours?: boolean;
}): PolicyInput => ({
  name: b.name,
  match: b.match ?? {},
  first_response_target_seconds: b.first_response_target_seconds ?? null,
  next_response_target_seconds: b.next_response_target_seconds ?? null,
  resolution_target_seconds: b.resolution_target_seconds ?? null,
  business_hours: b.business_hours ?? false,
});

export function slaRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  const read = async (tx: typeof db, tenantId: string, id: string) => renderPolicy((await findPolicy(tx, tenantId, id))!);
  const missing = () => new NotFound('not_found', 'No such conversation.');
  return [
    responseTimesRoute(deps),
    route({
      method: 'get',
      path: '/conversations/:id/sla',
      permission: 'conversations:read',
      summary: "A conversation's SLA: the policy that applies, its pending due dates, its breaches and met targets (sla null: none applies)",
      responses: { 200: object({ type: constant('conversation_sla'), conversation_id: uuid, sla: slaSchema }, { title: 'ConversationSlaAnswer' }) },
      async handle({ principal, params }) {
        const sla = isUuid(params.id) ? await conversationSla(db, principal.tenantId, params.id) : undefined;
        if (sla === undefined) throw missing();
        return { status: 200, body: { type: 'conversation_sla', conversation_id: params.id.toLowerCase(), sla } };
      },
    }),
    route({
      method: 'get',
      path: '/conversations/:id/statistics',
      permission: 'conversations:read',
      summary: "A conversation's response statistics (first response, resolution, reopens, replies; calendar and business seconds)",
      responses: {
        200: object(
          { type: constant('conversation_statistics'), conversation_id: uuid, statistics: statisticsSchema },
          { title: 'ConversationStatisticsAnswer' },
        ),
      },
      async handle({ principal, params }) {
        const statistics = isUuid(params.id) ? await conversationStatistics(db, principal.tenantId, params.id) : undefined;
        if (statistics === undefined) throw missing();
        return { status: 200, body: { type: 'conversation_statistics', conversation_id: params.id.toLowerCase(), statistics } };
      },
    }),
    route({
      method: 'get',
      path: '/sla_policies',
      permission: 'settings:read',
      summary: 'List SLA policies, in the order they are tried (unpaginated)',
      responses: { 200: policyListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await allPolicies(db, principal.tenantId)).map(renderPolicy) } satisfies SlaPolicyList };
      },
    }),
    commandRoute(deps, {
      method: 'post',
      path: '/sla_policies',
      permission: 'settings:write',
      summary: 'Create an SLA policy (tried after the existing ones): match, targets in seconds, business hours or calendar time',
      body: PolicyBody,
      command: (call) => createPolicy(call.write.ids.uuid(), input(call.body)),
      answer: { status: 201, schema: policySchema, read: async (tx, [created], call) => read(tx, call.principal.tenantId, created!.aggregate_id) },
    }),
    getRoute({
      path: '/sla_policies/:id',
      permission: 'settings:read',
      summary: 'Get an SLA policy',
      resource: policySchema,
      what: 'SLA policy',
      find: ({ principal, params }) => findPolicy(db, principal.tenantId, params.id),
      render: renderPolicy,
    }),
    commandRoute(deps, {
      method: 'put',
      path: '/sla_policies/:id',
      permission: 'settings:write',
      summary: 'Replace an SLA policy (conversations take the change when they next change)',
      body: PolicyBody,
      command: (call) => updatePolicy(call.params.id, input(call.body)),
      answer: { status: 200, schema: policySchema, read: async (tx, _e, call) => read(tx, call.principal.tenantId, call.params.id) },
    }),
    commandRoute(deps, {
      method: 'delete',
      path: '/sla_policies/:id',
      permission: 'settings:write',
      summary: 'Delete an SLA policy',
      command: (call) => deletePolicy(call.params.id),
      answer: {
        status: 200,
        schema: deletedPolicySchema,
        read: async (_tx, [deleted]): Promise<DeletedSlaPolicy> => ({ type: 'sla_policy', id: deleted!.aggregate_id, deleted: true }),
      },
    }),
  ];
}
