import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { MentionEvent } from '../conversations/index.js';

export const MENTIONS = tableSpec({
  table: 'mentions',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    member_id: 'uuid',
    conversation_id: 'uuid',
    part_id: 'uuid',
    mentioned_by_type: 'text',
    mentioned_by_id: 'text',
    created_at: 'timestamptz',
  },
} as const);

/** Each conversation.mentioned, as its member's mention (its id is the event's: one row per event, whatever replays it). */
export const mentionsProjector: Projector<MentionEvent> = {
  name: 'mentions',
  handles: ['conversation.mentioned'],
  tables: ['mentions'],
  project(events, writes) {
    const mentions = writes.table(MENTIONS);
    for (const e of events) {
      const p = e.payload;
      mentions.insert({
        tenant_id: e.tenant_id,
        id: e.id,
        member_id: p.member_id,
        conversation_id: p.conversation_id,
        part_id: p.part_id,
        mentioned_by_type: p.mentioned_by.type,
        mentioned_by_id: p.mentioned_by.id,
        created_at: e.created_at,
      });
    }
  },
};
