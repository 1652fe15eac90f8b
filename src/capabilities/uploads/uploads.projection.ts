// The read model of uploads (what each is, when it expires, the part it went
// to), and what a redaction or an erasure owes the files kept beside the log
// (upload_contents: primary data, rebuild never empties it; sealed under keys
// the same transaction destroys, and deleted with them here).
import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { ContactEvent } from '../contacts/index.js';
import type { ConversationEvent } from '../conversations/index.js';
import type { UploadEvent } from './uploads.events.js';

export const UPLOADS = tableSpec({
  table: 'uploads',
  key: ['tenant_id', 'id'],
  nullable: ['conversation_id', 'part_id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    content_type: 'text',
    size: 'bigint',
    created_by_type: 'text',
    created_by_id: 'text',
    created_at: 'timestamptz',
    expires_at: 'timestamptz',
    conversation_id: 'uuid',
    part_id: 'uuid',
  },
} as const);

/** The sealed files beside the log, by the part and the conversation they went to: what a redaction or an erasure deletes. */
const CONTENTS = tableSpec({
  table: 'upload_contents',
  key: ['tenant_id', 'id'],
  nullable: ['conversation_id', 'part_id'],
  columns: { tenant_id: 'uuid', id: 'uuid', conversation_id: 'uuid', part_id: 'uuid' },
} as const);

type Handled =
  | UploadEvent
  | Extract<ConversationEvent, { type: 'conversation_part.redacted' | 'conversation_part.unsent' }>
  | Extract<ContactEvent, { type: 'contact.erased' }>;

export const uploadsProjector: Projector<Handled> = {
  name: 'uploads',
  handles: ['upload.created', 'upload.attached', 'upload.expired', 'conversation_part.redacted', 'conversation_part.unsent', 'contact.erased'],
  tables: ['uploads'],
  project(events, writes) {
    const uploads = writes.table(UPLOADS);
    const contents = writes.table(CONTENTS);
    for (const e of events) {
      switch (e.type) {
        case 'upload.created': {
          const p = e.payload;
          uploads.insert({
            tenant_id: e.tenant_id,
            id: p.upload_id,
            content_type: p.content_type,
            size: p.size,
            created_by_type: p.created_by.type,
            created_by_id: p.created_by.id,
            created_at: e.created_at,
            expires_at: p.expires_at,
            conversation_id: null,
            part_id: null,
          });
          break;
        }
        case 'upload.expired':
          uploads.delete({ tenant_id: e.tenant_id, id: e.payload.upload_id });
          break;
        case 'upload.attached':
          uploads.patch({ tenant_id: e.tenant_id, id: e.payload.upload_id }, { conversation_id: e.payload.conversation_id, part_id: e.payload.part_id });
          break;
        case 'conversation_part.redacted':
        case 'conversation_part.unsent': {
          // The part's key went in this transaction, and the keys of its files with it (they are its own).
          const match = { tenant_id: e.tenant_id, part_id: e.payload.part_id };
          uploads.deleteWhere(match);
          contents.deleteWhere(match);
          break;
        }
        case 'contact.erased':
          for (const conversationId of e.payload.conversation_ids) {
            const match = { tenant_id: e.tenant_id, conversation_id: conversationId };
            uploads.deleteWhere(match);
            contents.deleteWhere(match);
          }
          break;
        default: {
          const never: never = e;
          throw new Error(`uploads projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
