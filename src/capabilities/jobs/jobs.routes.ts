import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import type { Principal } from '../../api/context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { ERROR } from '../../api/schemas.js';
import type { Call, RouteDef } from '../../api/routes.js';
import { BadRequest, NotFound, Unprocessable } from '../../platform/errors.js';
import { ownerLookup, type CoreDeps } from '../capability.js';
import { conversationIdsWhere, conversationQuerySchema, conversationWhere } from '../conversations/index.js';
import { BulkActionSchema } from './jobs.actions.js';
import { cancelJob, createJob } from './jobs.commands.js';
import { MAX_JOB_ITEMS } from './jobs.decider.js';
import type { JobCreator } from './jobs.events.js';
import { findJob, itemList, itemsOf, jobItemSchema, jobSchema, renderItem, renderJob, type JobItemRow } from './jobs.read.js';

const creator = (p: Principal): JobCreator => (p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId });

const Bulk = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Type.String({ format: 'uuid' }), {
        minItems: 1,
        maxItems: MAX_JOB_ITEMS,
        uniqueItems: true,
        description: `The conversations, at most ${MAX_JOB_ITEMS}.`,
      }),
    ),
    query: Type.Optional(
      Type.Unsafe<unknown>({
        ...conversationQuerySchema,
        description: `The conversations the filter language matches now (at most ${MAX_JOB_ITEMS}), oldest first.`,
      }),
    ),
    action: BulkActionSchema,
  },
  { additionalProperties: false },
);

export function jobsRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  const lookup = ownerLookup(deps);
  /** the conversations each call selected, resolved before its command (a query is read outside its transaction) */
  const selected = new WeakMap<object, { ids: string[]; by: 'ids' | 'query' }>();

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/conversations/bulk',
      permission: 'conversations:write',
      summary: 'Apply one action to many conversations (by ids or by a query), as a job run in the background',
      body: Bulk,
      // 10,000 ids are about 390 KB of JSON, more than BODY_LIMIT's default.
      bodyLimit: '512kb',
      responses: { 422: ERROR },
      async before(call) {
        const { body, principal } = call;
        if ((body.ids === undefined) === (body.query === undefined))
          throw new BadRequest('invalid_field', 'Name the conversations with exactly one of ids or query.', 'ids');
        if (body.ids) return void selected.set(call, { ids: body.ids.map((id) => id.toLowerCase()), by: 'ids' });
        const where = await conversationWhere(body.query, { tenantId: principal.tenantId, purpose: 'list', lookup });
        const ids = await conversationIdsWhere(db, principal.tenantId, where, MAX_JOB_ITEMS + 1);
        if (ids.length > MAX_JOB_ITEMS)
          throw new Unprocessable(
            'too_many_conversations',
            `The query matches more than ${MAX_JOB_ITEMS} conversations: narrow it, or make several jobs.`,
            'query',
          );
        if (ids.length === 0) throw new Unprocessable('no_conversations', 'The query matches no conversation.', 'query');
        selected.set(call, { ids, by: 'query' });
      },
      command: (call) => {
        const s = selected.get(call)!;
        return createJob({
          jobId: call.write.ids.uuid(),
          action: call.body.action,
          conversationIds: s.ids,
          selectedBy: s.by,
          createdBy: creator(call.principal),
        });
      },
      answer: {
        status: 202,
        schema: jobSchema,
        read: async (tx, [created], { principal }) => renderJob(tx, (await findJob(tx, principal.tenantId, (created!.payload as { job_id: string }).job_id))!),
      },
    }),

    getRoute({
      path: '/jobs/:id',
      permission: 'conversations:read',
      summary: "A job: what it does, its status, and its items' outcomes counted",
      resource: jobSchema,
      what: 'job',
      find: async ({ principal, params }) => {
        const row = await findJob(db, principal.tenantId, params.id);
        return row ? renderJob(db, row) : undefined;
      },
      render: (j) => j,
    }),

    listRoute<JobItemRow, Record<string, never>, '/jobs/:id/items'>({
      path: '/jobs/:id/items',
      permission: 'conversations:read',
      summary: "A job's items in order, each with its conversation, outcome and error",
      item: jobItemSchema,
      spec: itemList,
      async before({ principal, params }: Call<unknown, unknown, '/jobs/:id/items'>) {
        if (!(await findJob(db, principal.tenantId, params.id))) throw new NotFound('job');
      },
      query: ({ principal, params }) => itemsOf(db, principal.tenantId, params.id),
      render: renderItem,
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/jobs/:id',
      permission: 'conversations:write',
      summary: 'Cancel a job: its items not yet done are not done (409 once it has finished)',
      command: ({ principal, params }) => cancelJob(params.id, creator(principal)),
      answer: {
        status: 200,
        schema: jobSchema,
        read: async (tx, _events, { principal, params }) => renderJob(tx, (await findJob(tx, principal.tenantId, params.id))!),
      },
    }),
  ];
}
