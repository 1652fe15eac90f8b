import { commandContext } from '../../api/command-context.js';
import { getRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { Schema } from '../../api/validation.js';
import type { CoreDeps } from '../capability.js';
import { createTag, deleteTag, renameTag } from './tags.commands.js';
import { allTags, deletedTagSchema, findTag, renderTag, tagListSchema, tagSchema, type TagReferences, type TagRow } from './tags.read.js';

const name: Schema = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' };

export function tagsRoutes(deps: CoreDeps, refs: TagReferences): RouteDef[] {
  const { db, shell, clock } = deps;
  const reload = async (tenantId: string, id: string) => renderTag((await findTag(db, tenantId, id))!);

  return [
    route({
      method: 'get',
      path: '/tags',
      // Whoever tags conversations must be able to see the catalog.
      permission: 'conversations:read',
      summary: 'List tags (all of them, by name; unpaginated)',
      responses: { 200: tagListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await allTags(db, principal.tenantId)).map(renderTag) } };
      },
    }),

    route<{ name: string }>({
      method: 'post',
      path: '/tags',
      permission: 'settings:write',
      summary: 'Create a tag',
      responses: { 201: tagSchema },
      body: { additionalProperties: false, required: ['name'], properties: { name } },
      async handle(call) {
        const [created] = await shell.execute(commandContext(call, clock), createTag({ id: call.write.ids.uuid(), name: call.body.name }));
        return { status: 201, body: await reload(call.principal.tenantId, created!.aggregate_id) };
      },
    }),

    getRoute<TagRow>({
      path: '/tags/:id',
      permission: 'conversations:read',
      summary: 'Get a tag',
      resource: tagSchema,
      what: 'tag',
      find: ({ principal, params }) => findTag(db, principal.tenantId, params.id!),
      render: renderTag,
    }),

    route<{ name: string }>({
      method: 'put',
      path: '/tags/:id',
      permission: 'settings:write',
      summary: 'Rename a tag (everything tagged with it shows the new name)',
      responses: { 200: tagSchema },
      body: { additionalProperties: false, required: ['name'], properties: { name } },
      async handle(call) {
        await shell.execute(commandContext(call, clock), renameTag({ id: call.params.id!, name: call.body.name }));
        return { status: 200, body: await reload(call.principal.tenantId, call.params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/tags/:id',
      permission: 'settings:write',
      summary: 'Delete a tag (it comes off every conversation and contact carrying it)',
      responses: { 200: deletedTagSchema },
      async handle(call) {
        const [deleted] = await shell.execute(commandContext(call, clock), deleteTag({ id: call.params.id! }, refs));
        return { status: 200, body: { type: 'tag', id: deleted!.aggregate_id, deleted: true } };
      },
    }),
  ];
}
