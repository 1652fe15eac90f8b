import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// Saved replies are the workspace's own canned text, not anyone's personal
// data: nothing here is sealed. Placeholders stay placeholders in the log.

export const SavedReplyCreated = defineEvent({
  type: 'saved_reply.created',
  aggregate_type: 'saved_reply',
  description: 'A saved reply was created. `body` holds its placeholders unrendered ({{contact.name}} …).',
  payload: payload({ id: Uuid(), name: Text(), body: Text() }),
});

export const SavedReplyUpdated = defineEvent({
  type: 'saved_reply.updated',
  aggregate_type: 'saved_reply',
  description: "A saved reply's name or body changed; only changed fields are in the payload.",
  payload: payload({ id: Uuid(), name: Type.Optional(Text()), body: Type.Optional(Text()) }),
});

export const SavedReplyDeleted = defineEvent({
  type: 'saved_reply.deleted',
  aggregate_type: 'saved_reply',
  description: 'A saved reply was deleted; its name may be used again.',
  payload: payload({ id: Uuid() }),
});

export const savedReplyEvents = [SavedReplyCreated, SavedReplyUpdated, SavedReplyDeleted] as const;
export type SavedReplyEvent = EventOf<(typeof savedReplyEvents)[number]>;
