import { commandContext } from '../../api/command-context.js';
import { route, type Call, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import type { Schema } from '../../api/validation.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { checkConversationQuery, conversationList, conversationQuerySchema } from '../conversations/index.js';
import { createView, deleteView, updateView } from './views.commands.js';
import type { Caller, NewView, ViewChanges } from './views.decider.js';
import { deletedViewSchema, findVisibleViewRow, renderView, viewListSchema, viewSchema, visibleViewRows } from './views.read.js';

const fields: Record<string, Schema> = {
  name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  query: conversationQuerySchema,
  sort: { type: 'string', enum: Object.keys(conversationList.sorts) },
  order: { type: 'string', enum: ['asc', 'desc'] },
  visibility: { type: 'string', enum: ['private', 'workspace'] },
};

const caller = (call: Call): Caller => ({ memberId: call.principal.memberId, canManageWorkspace: call.principal.scopes.includes('settings:write') });

/**
 * Views are read with conversations:read (the spec's "list and read
 * conversations, parts and views"); a member saves and changes their own
 * private views with it too, since a private view is their own filter and
 * shows nothing they could not list. Workspace views need settings:write.
 */
export function viewsRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock } = deps;
  const reload = async (call: Call, id: string) => renderView((await findVisibleViewRow(db, call.principal.tenantId, call.principal.memberId, id))!);

  return [
    route({
      method: 'get',
      path: '/views',
      permission: 'conversations:read',
      summary: 'List the views the caller can see (workspace views, then their private ones; unpaginated)',
      responses: { 200: viewListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await visibleViewRows(db, principal.tenantId, principal.memberId)).map(renderView) } };
      },
    }),

    route<NewView>({
      method: 'post',
      path: '/views',
      permission: 'conversations:read',
      summary: 'Save a view: a conversations filter, private (yours) or the workspace\'s (needs settings:write)',
      responses: { 201: viewSchema, 403: ERROR, 422: ERROR },
      body: { additionalProperties: false, required: ['name', 'query'], properties: fields },
      async handle(call) {
        const b = call.body;
        checkConversationQuery(b.query, 'query');
        const input: NewView = { id: call.write.ids.uuid(), name: b.name.trim(), query: b.query, sort: b.sort ?? 'updated_at', order: b.order ?? 'desc', visibility: b.visibility ?? 'private' };
        const [created] = await shell.execute(commandContext(call, clock), createView(input, caller(call)));
        return { status: 201, body: await reload(call, created!.aggregate_id) };
      },
    }),

    route({
      method: 'get',
      path: '/views/:id',
      permission: 'conversations:read',
      summary: 'Get a view (another member\'s private view is 404)',
      responses: { 200: viewSchema },
      async handle(call) {
        const row = await findVisibleViewRow(db, call.principal.tenantId, call.principal.memberId, call.params.id!);
        if (!row) throw new NotFound('view');
        return { status: 200, body: renderView(row) };
      },
    }),

    route<ViewChanges>({
      method: 'put',
      path: '/views/:id',
      permission: 'conversations:read',
      summary: 'Change a view (a workspace view, or making one, needs settings:write)',
      responses: { 200: viewSchema, 403: ERROR },
      body: { additionalProperties: false, minProperties: 1, properties: fields },
      async handle(call) {
        const b = call.body;
        if (b.query !== undefined) checkConversationQuery(b.query, 'query');
        await shell.execute(commandContext(call, clock), updateView(call.params.id!, { ...b, ...(b.name !== undefined ? { name: b.name.trim() } : {}) }, caller(call)));
        return { status: 200, body: await reload(call, call.params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/views/:id',
      permission: 'conversations:read',
      summary: 'Delete a view (a workspace view needs settings:write)',
      responses: { 200: deletedViewSchema, 403: ERROR },
      async handle(call) {
        const [deleted] = await shell.execute(commandContext(call, clock), deleteView(call.params.id!, caller(call)));
        return { status: 200, body: { type: 'view', id: deleted!.aggregate_id, deleted: true } };
      },
    }),
  ];
}
