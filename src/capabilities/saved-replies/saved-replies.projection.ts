import type { Projector } from '../../projections/projector.js';
import type { SavedReplyEvent } from './saved-replies.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const SAVED_REPLIES = tableSpec({
  table: 'saved_replies',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    body: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const savedRepliesProjector: Projector<SavedReplyEvent> = {
  name: 'saved-replies',
  handles: ['saved_reply.created', 'saved_reply.updated', 'saved_reply.deleted'],
  tables: ['saved_replies'],
  project(events, writes) {
    const replies = writes.table(SAVED_REPLIES);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'saved_reply.created': {
          const { id: _id, ...fields } = e.payload;
          replies.insert({ ...key, ...fields, created_at: e.created_at, updated_at: e.created_at });
          break;
        }
        case 'saved_reply.updated': {
          const { id: _id, ...changes } = e.payload;
          replies.patch(key, { ...changes, updated_at: e.created_at });
          break;
        }
        case 'saved_reply.deleted':
          replies.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`saved-replies projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
