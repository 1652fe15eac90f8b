import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// The tag catalog. Tag names are the workspace's own labels, not anyone's
// personal data: nothing here is sealed. Tagging a conversation or a contact
// is that capability's own event (conversation.tagged, contact.tagged): a
// delta naming one tag, so two writers never undo each other.

export const TagCreated = defineEvent({
  type: 'tag.created',
  aggregate_type: 'tag',
  description: 'A tag was added to the catalog (its name is unique in the workspace, ignoring case).',
  payload: payload({ id: Uuid(), name: Text() }),
});

export const TagRenamed = defineEvent({
  type: 'tag.renamed',
  aggregate_type: 'tag',
  description: 'A tag got a new name. Conversations and contacts show tags by id and current name, so this one event renames it everywhere.',
  payload: payload({ id: Uuid(), name: Text() }),
});

export const TagDeleted = defineEvent({
  type: 'tag.deleted',
  aggregate_type: 'tag',
  description:
    'A tag was deleted from the catalog; its name may be used again. `conversation_ids` and `contact_ids` are what carried it and no longer do (their projections fold this one event; no untagged event is appended per conversation).',
  payload: payload({ id: Uuid(), name: Text(), conversation_ids: Type.Array(Uuid()), contact_ids: Type.Array(Uuid()) }),
});

export const tagEvents = [TagCreated, TagRenamed, TagDeleted] as const;
export type TagEvent = EventOf<(typeof tagEvents)[number]>;
