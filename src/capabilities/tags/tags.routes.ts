import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { CoreDeps } from '../capability.js';
import { createTag, deleteTag, renameTag } from './tags.commands.js';
import { allTags, deletedTagSchema, findTag, renderTag, tagListSchema, tagSchema, type DeletedTag, type TagList, type TagReferences } from './tags.read.js';

const TagName = Type.Object({ name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }) }, { additionalProperties: false });

export function tagsRoutes(deps: CoreDeps, refs: TagReferences): RouteDef[] {
  const { db } = deps;

  return [
    route({
      method: 'get',
      path: '/tags',
      // Whoever tags conversations must be able to see the catalog.
      permission: 'conversations:read',
      summary: 'List tags (all of them, by name; unpaginated)',
      responses: { 200: tagListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await allTags(db, principal.tenantId)).map(renderTag) } satisfies TagList };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/tags',
      permission: 'settings:write',
      summary: 'Create a tag',
      body: TagName,
      command: (call) => createTag({ id: call.write.ids.uuid(), name: call.body.name }),
      answer: {
        status: 201,
        schema: tagSchema,
        read: async (tx, [created], call) => renderTag((await findTag(tx, call.principal.tenantId, created!.aggregate_id))!),
      },
    }),

    getRoute({
      path: '/tags/:id',
      permission: 'conversations:read',
      summary: 'Get a tag',
      resource: tagSchema,
      what: 'tag',
      find: ({ principal, params }) => findTag(db, principal.tenantId, params.id),
      render: renderTag,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/tags/:id',
      permission: 'settings:write',
      summary: 'Rename a tag (everything tagged with it shows the new name)',
      body: TagName,
      command: (call) => renameTag({ id: call.params.id, name: call.body.name }),
      answer: { status: 200, schema: tagSchema, read: async (tx, _events, call) => renderTag((await findTag(tx, call.principal.tenantId, call.params.id))!) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/tags/:id',
      permission: 'settings:write',
      summary: 'Delete a tag (it comes off every conversation and contact carrying it)',
      command: (call) => deleteTag({ id: call.params.id }, refs),
      answer: {
        status: 200,
        schema: deletedTagSchema,
        read: async (_tx, [deleted]): Promise<DeletedTag> => ({ type: 'tag', id: deleted!.aggregate_id, deleted: true }),
      },
    }),
  ];
}
