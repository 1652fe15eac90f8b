// The read model of e-mail messages (email_messages), and what an erasure or a
// redaction owes the attachments kept beside the log (email_attachments: primary
// data, rebuild never empties it; their bytes are sealed under the part's data
// key, which the same transaction destroys, and the rows go with it).
import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { ContactEvent } from '../contacts/index.js';
import type { ConversationEvent } from '../conversations/index.js';
import type { EmailEvent } from './email.events.js';

export const EMAIL_MESSAGES = tableSpec({
  table: 'email_messages',
  key: ['tenant_id', 'part_id'],
  nullable: [
    'attachments',
    'authentication',
    'delivery_code',
    'delivery_error',
    'delivery_status',
    'from_address',
    'from_name',
    'html',
    'message_id',
    'message_id_hash',
    'quoted',
    'recipients',
    'subject',
    'threaded_by',
  ],
  columns: {
    tenant_id: 'uuid',
    part_id: 'uuid',
    conversation_id: 'uuid',
    channel_id: 'uuid',
    direction: 'text',
    message_id_hash: 'text',
    threaded_by: 'text',
    message_id: 'text',
    from_address: 'text',
    from_name: 'text',
    recipients: 'jsonb',
    subject: 'text',
    html: 'text',
    quoted: 'text',
    attachments: 'jsonb',
    authentication: 'jsonb',
    suspicious: 'boolean',
    automated: 'boolean',
    delivery_status: 'text',
    delivery_code: 'integer',
    delivery_error: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

const ATTACHMENTS_OF_PART = tableSpec({
  table: 'email_attachments',
  key: ['tenant_id', 'part_id'],
  matches: 'many',
  columns: { tenant_id: 'uuid', part_id: 'uuid' },
} as const);

/** The personal columns, as an erasure or redaction leaves them. */
const forgotten = {
  message_id: null,
  from_address: null,
  from_name: null,
  recipients: null,
  subject: null,
  html: null,
  quoted: null,
  attachments: null,
  delivery_error: null,
};

type Handled =
  | EmailEvent
  | Extract<ConversationEvent, { type: 'conversation_part.redacted' | 'conversation_part.unsent' }>
  | Extract<ContactEvent, { type: 'contact.erased' }>;

export const emailProjector: Projector<Handled> = {
  name: 'email',
  handles: ['email.received', 'email.sent', 'conversation_part.delivery_failed', 'conversation_part.redacted', 'conversation_part.unsent', 'contact.erased'],
  tables: ['email_messages'],
  project(events, writes) {
    const messages = writes.table(EMAIL_MESSAGES);
    const attachmentsOfPart = writes.table(ATTACHMENTS_OF_PART);
    for (const e of events) {
      switch (e.type) {
        case 'email.received': {
          const p = e.payload;
          messages.insert({
            tenant_id: e.tenant_id,
            part_id: p.part_id,
            conversation_id: p.conversation_id,
            channel_id: p.channel_id,
            direction: 'in',
            message_id_hash: p.message_id_hash,
            threaded_by: p.threaded_by,
            message_id: p.message_id,
            from_address: p.from?.address ?? null,
            from_name: p.from?.name ?? null,
            recipients: p.to || p.cc ? { to: p.to ?? [], cc: p.cc ?? [] } : null,
            subject: p.subject,
            html: p.html,
            quoted: p.quoted,
            attachments: p.attachments,
            authentication: p.authentication,
            suspicious: p.suspicious,
            automated: p.automated,
            delivery_status: null,
            delivery_code: null,
            delivery_error: null,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'email.sent': {
          const p = e.payload;
          messages.insert({
            tenant_id: e.tenant_id,
            part_id: p.part_id,
            conversation_id: p.conversation_id,
            channel_id: p.channel_id,
            direction: 'out',
            message_id_hash: p.message_id_hash,
            threaded_by: null,
            message_id: p.message_id,
            from_address: null,
            from_name: null,
            recipients: p.to ? { to: p.to, cc: [] } : null,
            subject: p.subject,
            html: null,
            quoted: null,
            attachments: null,
            authentication: null,
            suspicious: false,
            automated: false,
            delivery_status: 'sent',
            delivery_code: null,
            delivery_error: null,
            created_at: e.created_at,
            updated_at: e.created_at,
          });
          break;
        }
        case 'conversation_part.delivery_failed': {
          const p = e.payload;
          const failed = { delivery_status: 'failed', delivery_code: p.status, delivery_error: p.diagnostic, updated_at: e.created_at };
          // A bounce comes after the relay accepted the reply (its row exists); a refusal by the relay, before.
          if (p.reason === 'bounced') messages.patch({ tenant_id: e.tenant_id, part_id: p.part_id }, failed);
          else
            messages.insert({
              tenant_id: e.tenant_id,
              part_id: p.part_id,
              conversation_id: p.conversation_id,
              channel_id: p.channel_id,
              direction: 'out',
              message_id_hash: null,
              threaded_by: null,
              ...forgotten,
              authentication: null,
              suspicious: false,
              automated: false,
              ...failed,
              created_at: e.created_at,
            });
          break;
        }
        case 'conversation_part.redacted':
        case 'conversation_part.unsent':
          messages.patch({ tenant_id: e.tenant_id, part_id: e.payload.part_id }, { ...forgotten, updated_at: e.created_at });
          attachmentsOfPart.delete({ tenant_id: e.tenant_id, part_id: e.payload.part_id });
          break;
        case 'contact.erased':
          // Every part of the contact's conversations (a batch keeps one key per table: by part, like the rest).
          for (const id of e.payload.part_ids) {
            messages.patch({ tenant_id: e.tenant_id, part_id: id }, { ...forgotten, updated_at: e.created_at });
            attachmentsOfPart.delete({ tenant_id: e.tenant_id, part_id: id });
          }
          break;
        default: {
          const never: never = e;
          throw new Error(`email projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
