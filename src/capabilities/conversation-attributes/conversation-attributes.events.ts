import { defineEvent, Nullable, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// The catalog of conversation attribute definitions. A definition (its name, type,
// options, description) is the workspace's own vocabulary, not anyone's personal data:
// nothing here is sealed. The values set on a conversation are conversations' own event
// (conversation.attributes_updated), sealed there as personal data.

export const DATA_TYPES = ['string', 'integer', 'float', 'boolean', 'date', 'list'] as const;
const DataType = () => Type.Union(DATA_TYPES.map((t) => Type.Literal(t)));

export const ConversationAttributeCreated = defineEvent({
  type: 'conversation_attribute.created',
  aggregate_type: 'conversation_attribute',
  description:
    'A conversation attribute was defined: its name (unique in the workspace), its data type and, for a `list`, its options. Conversations may then carry a value of it.',
  payload: payload({
    id: Uuid(),
    name: Text(),
    data_type: DataType(),
    options: Nullable(Type.Array(Text())),
    description: Nullable(Text()),
  }),
});

export const ConversationAttributeUpdated = defineEvent({
  type: 'conversation_attribute.updated',
  aggregate_type: 'conversation_attribute',
  description:
    'A definition changed: only the changed fields are in the payload. An archived attribute keeps its values on conversations but takes no new ones.',
  payload: payload({
    id: Uuid(),
    name: Text(),
    options: Type.Optional(Nullable(Type.Array(Text()))),
    description: Type.Optional(Nullable(Text())),
    archived: Type.Optional(Type.Boolean()),
  }),
});

export const ConversationAttributeDeleted = defineEvent({
  type: 'conversation_attribute.deleted',
  aggregate_type: 'conversation_attribute',
  description: 'A definition was deleted (only one no conversation holds a value of); its name may be defined again.',
  payload: payload({ id: Uuid(), name: Text() }),
});

export const conversationAttributeEvents = [ConversationAttributeCreated, ConversationAttributeUpdated, ConversationAttributeDeleted] as const;
export type ConversationAttributeEvent = EventOf<(typeof conversationAttributeEvents)[number]>;
