// Custom attribute values on a conversation (PUT /api/conversations/{id}): checked
// against the workspace's definitions (conversation-attributes), appended as the
// whole resulting set, sealed as personal data under the conversation's key.
import type { CommandSpec } from '../../commands/command.js';
import { NotFound } from '../../platform/errors.js';
import { contactErased } from '../contacts/index.js';
import { applyAttributeValues, attributeDefinitions, type AttributeDefinition, type AttributeValue } from '../conversation-attributes/index.js';
import type { ConversationEvent } from './conversations.events.js';
import { findConversation } from './conversations.read.js';

export interface AttributesState {
  conversation: { id: string; contactId: string; contactErased: boolean; values: Record<string, AttributeValue> } | null;
  definitions: AttributeDefinition[];
}

/** Sets (or with null removes) values; a change that changes nothing appends nothing. */
export function decideSetAttributes(cmd: { conversationId: string; change: Record<string, unknown> }, s: AttributesState): ConversationEvent[] {
  if (!s.conversation) throw new NotFound('conversation');
  // The erasure destroyed the conversation's key: values set now would be sealed under a new key no erasure reaches.
  if (s.conversation.contactErased) throw contactErased(s.conversation.contactId);
  const { values, changed } = applyAttributeValues(s.conversation.values, cmd.change, s.definitions);
  if (changed.length === 0) return [];
  return [
    {
      type: 'conversation.attributes_updated',
      aggregate_type: 'conversation',
      aggregate_id: s.conversation.id,
      payload: { conversation_id: s.conversation.id, custom_attributes: values, changed },
    },
  ];
}

export const setConversationAttributes = (cmd: {
  conversationId: string;
  change: Record<string, unknown>;
}): CommandSpec<AttributesState, ConversationEvent> => ({
  name: 'SetConversationAttributes',
  load: async (db, ctx) => {
    const c = await findConversation(db, ctx.tenantId, cmd.conversationId);
    return {
      conversation: c ? { id: c.id, contactId: c.contact_id, contactErased: c.contact_erased, values: c.custom_attributes ?? {} } : null,
      definitions: await attributeDefinitions(db, ctx.tenantId),
    };
  },
  decide: (s) => decideSetAttributes(cmd, s),
});
