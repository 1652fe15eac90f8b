// Conversation attributes: the workspace's catalog of typed attribute
// definitions (Intercom's conversation data attributes). The values belong to
// conversations (their own event, their own column, their search field); they
// import the definitions and the value check from here, so this capability never
// imports them back: a deletion gets their lookup handed in.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { conversationAttributeEvents } from './conversation-attributes.events.js';
import { conversationAttributesProjector } from './conversation-attributes.projection.js';
import type { AttributeReferences } from './conversation-attributes.read.js';
import { conversationAttributesRoutes } from './conversation-attributes.routes.js';

export { applyAttributeValues, type AttributeDefinition, type AttributeValue } from './conversation-attributes.decider.js';
export { attributeDefinitions, attributeValuesSchema, type AttributeReferences } from './conversation-attributes.read.js';
export { ATTRIBUTE_NAME } from './conversation-attributes.routes.js';
export type { ConversationAttributeEvent } from './conversation-attributes.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  attribute_exists: { status: 409, when: 'Defining a conversation attribute under a name the workspace already uses.' },
  attribute_in_use: { status: 409, when: 'Deleting a conversation attribute some conversation holds a value of (archive it instead).' },
  limit_reached: { status: 422, when: 'Defining more conversation attributes than a workspace may keep (100).' },
  unknown_attribute: { status: 400, when: '`custom_attributes` names an attribute the workspace has not defined (one entry per name).' },
  attribute_archived: { status: 400, when: 'Setting a value of an archived conversation attribute (it keeps its values but takes no new ones).' },
  invalid_attribute_value: {
    status: 400,
    when: "A conversation attribute's value does not fit its data type (a `list` takes only its options; a `date` is YYYY-MM-DD); one entry per name.",
  },
});

/** The module, given how to tell whether a definition is in use (see AttributeReferences). */
export const conversationAttributesModule = (refs: AttributeReferences) =>
  defineModule({
    name: 'conversation-attributes',
    errors,
    events: conversationAttributeEvents,
    projectors: [conversationAttributesProjector],
    routes: (deps) => conversationAttributesRoutes(deps, refs),
  });
