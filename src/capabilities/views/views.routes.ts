import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { route, type Call, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { checkConversationQuery, conversationList, conversationQuerySchema } from '../conversations/index.js';
import { createView, deleteView, updateView } from './views.commands.js';
import type { Caller, NewView, Order, Sort, Visibility } from './views.decider.js';
import {
  deletedViewSchema,
  findVisibleViewRow,
  renderView,
  viewListSchema,
  viewSchema,
  visibleViewRows,
  type DeletedView,
  type ViewList,
} from './views.read.js';

/** One of some strings, as a JSON Schema enum (a union of literals would be an anyOf, with its errors). */
const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  // The language checks the query (paths in errors); the schema only says what it is.
  query: Type.Unsafe<NewView['query']>(conversationQuerySchema),
  sort: oneOf(Object.keys(conversationList.sorts) as Sort[]),
  order: oneOf<Order>(['asc', 'desc']),
  visibility: oneOf<Visibility>(['private', 'workspace']),
};
const NewViewBody = Type.Object(
  {
    name: fields.name,
    query: fields.query,
    sort: Type.Optional(fields.sort),
    order: Type.Optional(fields.order),
    visibility: Type.Optional(fields.visibility),
  },
  { additionalProperties: false },
);
const ViewChangesBody = Type.Partial(Type.Object(fields), { additionalProperties: false, minProperties: 1 });

const caller = (call: Call): Caller => ({
  memberId: call.principal.memberId,
  canManageWorkspace: call.principal.scopes.includes('settings:write'),
  isOwner: call.principal.role === 'owner',
});

/**
 * Views are read with conversations:read (the spec's "list and read
 * conversations, parts and views"); a member saves and changes their own
 * private views with it too, since a private view is their own filter and
 * shows nothing they could not list. Workspace views need settings:write.
 * Each member may keep MAX_PRIVATE_VIEWS private views; the workspace
 * MAX_WORKSPACE_VIEWS workspace views (views.decider.ts).
 */
export function viewsRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;

  return [
    route({
      method: 'get',
      path: '/views',
      permission: 'conversations:read',
      summary: 'List the views the caller can see (workspace views, then their private ones; unpaginated)',
      responses: { 200: viewListSchema },
      async handle({ principal }) {
        return {
          status: 200,
          body: { type: 'list', data: (await visibleViewRows(db, principal.tenantId, principal.memberId)).map(renderView) } satisfies ViewList,
        };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/views',
      permission: 'conversations:read',
      summary: "Save a view: a conversations filter, private (yours) or the workspace's (needs settings:write)",
      body: NewViewBody,
      responses: { 403: ERROR, 422: ERROR },
      command: (call) => {
        const b = call.body;
        checkConversationQuery(b.query, 'query');
        const input: NewView = {
          id: call.write.ids.uuid(),
          name: b.name.trim(),
          query: b.query,
          sort: b.sort ?? 'updated_at',
          order: b.order ?? 'desc',
          visibility: b.visibility ?? 'private',
        };
        return createView(input, caller(call));
      },
      answer: {
        status: 201,
        schema: viewSchema,
        read: async (tx, [created], { principal }) =>
          renderView((await findVisibleViewRow(tx, principal.tenantId, principal.memberId, created!.aggregate_id))!),
      },
    }),

    route({
      method: 'get',
      path: '/views/:id',
      permission: 'conversations:read',
      summary: "Get a view (another member's private view is 404)",
      responses: { 200: viewSchema },
      async handle(call) {
        const row = await findVisibleViewRow(db, call.principal.tenantId, call.principal.memberId, call.params.id);
        if (!row) throw new NotFound('view');
        return { status: 200, body: renderView(row) };
      },
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/views/:id',
      permission: 'conversations:read',
      summary: 'Change a view (a workspace view, or making one, needs settings:write)',
      body: ViewChangesBody,
      responses: { 403: ERROR },
      command: (call) => {
        const b = call.body;
        if (b.query !== undefined) checkConversationQuery(b.query, 'query');
        return updateView(call.params.id, { ...b, ...(b.name !== undefined ? { name: b.name.trim() } : {}) }, caller(call));
      },
      answer: {
        status: 200,
        schema: viewSchema,
        read: async (tx, _events, { principal, params }) => renderView((await findVisibleViewRow(tx, principal.tenantId, principal.memberId, params.id))!),
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/views/:id',
      permission: 'conversations:read',
      summary: "Delete a view (a workspace view needs settings:write; an owner with settings:write may delete another member's private view)",
      responses: { 403: ERROR },
      command: (call) => deleteView(call.params.id, caller(call)),
      answer: {
        status: 200,
        schema: deletedViewSchema,
        read: async (_tx, [deleted]): Promise<DeletedView> => ({ type: 'view', id: deleted!.aggregate_id, deleted: true }),
      },
    }),
  ];
}
