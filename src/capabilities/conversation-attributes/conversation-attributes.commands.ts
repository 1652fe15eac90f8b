import type { CommandSpec } from '../../commands/command.js';
import {
  decideCreateAttribute,
  decideDeleteAttribute,
  decideUpdateAttribute,
  type AttributeDefinition,
  type DefinitionChange,
  type NewDefinition,
} from './conversation-attributes.decider.js';
import type { ConversationAttributeEvent } from './conversation-attributes.events.js';
import { attributeDefinition, countAttributes, findAttribute, findAttributeByName, type AttributeReferences } from './conversation-attributes.read.js';

export const createAttribute = (input: NewDefinition): CommandSpec<{ count: number; sameName: AttributeDefinition | null }, ConversationAttributeEvent> => ({
  name: 'CreateConversationAttribute',
  load: async (db, ctx) => ({
    count: await countAttributes(db, ctx.tenantId),
    sameName: attributeDefinition(await findAttributeByName(db, ctx.tenantId, input.name)),
  }),
  decide: (s) => decideCreateAttribute(input, s),
});

export const updateAttribute = (input: { id: string; change: DefinitionChange }): CommandSpec<AttributeDefinition | null, ConversationAttributeEvent> => ({
  name: 'UpdateConversationAttribute',
  load: async (db, ctx) => attributeDefinition(await findAttribute(db, ctx.tenantId, input.id)),
  decide: (d) => decideUpdateAttribute(input, d),
});

export const deleteAttribute = (
  input: { id: string },
  refs: AttributeReferences,
): CommandSpec<{ definition: AttributeDefinition | null; inUse: boolean }, ConversationAttributeEvent> => ({
  name: 'DeleteConversationAttribute',
  load: async (db, ctx) => {
    const definition = attributeDefinition(await findAttribute(db, ctx.tenantId, input.id));
    return { definition, inUse: definition ? await refs.inUse(db, ctx.tenantId, definition.name) : false };
  },
  decide: (s) => decideDeleteAttribute(s.definition, s),
});
