import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { ConversationAttributeEvent } from './conversation-attributes.events.js';

export const CONVERSATION_ATTRIBUTES = tableSpec({
  table: 'conversation_attributes',
  key: ['tenant_id', 'id'],
  nullable: ['description', 'options'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    data_type: 'text',
    options: 'text[]',
    description: 'text',
    archived: 'boolean',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const conversationAttributesProjector: Projector<ConversationAttributeEvent> = {
  name: 'conversation-attributes',
  handles: ['conversation_attribute.created', 'conversation_attribute.updated', 'conversation_attribute.deleted'],
  tables: ['conversation_attributes'],
  project(events, writes) {
    const defs = writes.table(CONVERSATION_ATTRIBUTES);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'conversation_attribute.created': {
          const p = e.payload;
          defs.insert({
            ...key,
            name: p.name,
            data_type: p.data_type,
            options: p.options,
            description: p.description,
            archived: false,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'conversation_attribute.updated': {
          const { id: _id, name: _name, ...changed } = e.payload;
          defs.patch(key, { ...changed, updated_at: e.created_at });
          break;
        }
        case 'conversation_attribute.deleted':
          defs.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`conversation-attributes projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
