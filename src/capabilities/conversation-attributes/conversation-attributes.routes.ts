import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { CoreDeps } from '../capability.js';
import { createAttribute, deleteAttribute, updateAttribute } from './conversation-attributes.commands.js';
import { MAX_OPTIONS } from './conversation-attributes.decider.js';
import { DATA_TYPES } from './conversation-attributes.events.js';
import {
  allAttributes,
  attributeListSchema,
  attributeSchema,
  deletedAttributeSchema,
  type ConversationAttributeList,
  type DeletedConversationAttribute,
  findAttribute,
  renderAttribute,
  type AttributeReferences,
} from './conversation-attributes.read.js';

/** A name search can say after `custom_attributes.`: a letter or underscore, then letters, digits and underscores. */
export const ATTRIBUTE_NAME = '^[A-Za-z_][A-Za-z0-9_]{0,63}$';
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { minItems: 1, maxItems: MAX_OPTIONS });
const Description = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 });

const NewAttribute = Type.Object(
  {
    name: Type.String({ pattern: ATTRIBUTE_NAME, maxLength: 64 }),
    data_type: Type.Unsafe<(typeof DATA_TYPES)[number]>({ type: 'string', enum: [...DATA_TYPES] }),
    options: Type.Optional(Options),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);

/** The name and data type never change: values already set were checked against them. */
const AttributeChange = Type.Object(
  { options: Type.Optional(Options), description: Type.Optional(Description), archived: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export function conversationAttributesRoutes(deps: CoreDeps, refs: AttributeReferences): RouteDef[] {
  const { db } = deps;
  const read = async (tx: typeof db, tenantId: string, id: string) => renderAttribute((await findAttribute(tx, tenantId, id))!);
  return [
    route({
      method: 'get',
      path: '/conversation_attributes',
      // Whoever sets values on conversations must see what they may set.
      permission: 'conversations:read',
      summary: 'List conversation attribute definitions (all of them, by name; unpaginated)',
      responses: { 200: attributeListSchema },
      async handle({ principal }) {
        return {
          status: 200,
          body: { type: 'list', data: (await allAttributes(db, principal.tenantId)).map(renderAttribute) } satisfies ConversationAttributeList,
        };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/conversation_attributes',
      permission: 'settings:write',
      summary: 'Define a conversation attribute (string, integer, float, boolean, date, or list with options)',
      body: NewAttribute,
      command: (call) =>
        createAttribute({
          id: call.write.ids.uuid(),
          name: call.body.name,
          dataType: call.body.data_type,
          options: call.body.options,
          description: call.body.description ?? null,
        }),
      answer: { status: 201, schema: attributeSchema, read: async (tx, [created], call) => read(tx, call.principal.tenantId, created!.aggregate_id) },
    }),

    getRoute({
      path: '/conversation_attributes/:id',
      permission: 'conversations:read',
      summary: 'Get a conversation attribute definition',
      resource: attributeSchema,
      what: 'conversation attribute',
      find: ({ principal, params }) => findAttribute(db, principal.tenantId, params.id),
      render: renderAttribute,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/conversation_attributes/:id',
      permission: 'settings:write',
      summary: "Change a definition's description, options (list) or archived flag; its name and type never change",
      body: AttributeChange,
      command: (call) => updateAttribute({ id: call.params.id, change: call.body }),
      answer: { status: 200, schema: attributeSchema, read: async (tx, _events, call) => read(tx, call.principal.tenantId, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/conversation_attributes/:id',
      permission: 'settings:write',
      summary: 'Delete a definition no conversation holds a value of (409 attribute_in_use otherwise: archive it instead)',
      command: (call) => deleteAttribute({ id: call.params.id }, refs),
      answer: {
        status: 200,
        schema: deletedAttributeSchema,
        read: async (_tx, [deleted]): Promise<DeletedConversationAttribute> => ({ type: 'conversation_attribute', id: deleted!.aggregate_id, deleted: true }),
      },
    }),
  ];
}
