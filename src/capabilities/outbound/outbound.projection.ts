import type { Projector } from '../../projections/projector.js';
import { deterministicUuid } from '../../platform/ids.js';
import type { OutboundEvent } from './outbound.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const COLLECTIONS = tableSpec({
  table: 'outbound_collections',
  key: ['tenant_id', 'id'],
  nullable: ['author', 'cancel_reason', 'cancelled_at', 'member_id', 'scheduled_at', 'send_at', 'sending_at', 'sent_at', 'subject'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    channel_id: 'uuid',
    subject: 'text',
    body: 'text',
    audience: 'jsonb',
    send_at: 'timestamptz',
    state: 'text',
    author: 'jsonb',
    member_id: 'uuid',
    audience_size: 'integer',
    pending: 'integer',
    sent: 'integer',
    failed: 'integer',
    skipped: 'integer',
    cancelled: 'integer',
    cancel_reason: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    scheduled_at: 'timestamptz',
    sending_at: 'timestamptz',
    sent_at: 'timestamptz',
    cancelled_at: 'timestamptz',
  },
} as const);

export const RECIPIENTS = tableSpec({
  table: 'outbound_recipients',
  key: ['tenant_id', 'collection_id', 'contact_id'],
  nullable: ['conversation_id', 'error_code', 'error_message'],
  columns: {
    tenant_id: 'uuid',
    collection_id: 'uuid',
    contact_id: 'uuid',
    id: 'uuid',
    position: 'integer',
    status: 'text',
    conversation_id: 'uuid',
    error_code: 'text',
    error_message: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

/** A recipient's id: one per (collection, contact), the same in every rebuild. */
export const recipientId = (tenantId: string, collectionId: string, contactId: string) =>
  deterministicUuid('outbound-recipient', tenantId, collectionId, contactId);

export const outboundProjector: Projector<OutboundEvent> = {
  name: 'outbound',
  handles: [
    'outbound.created',
    'outbound.updated',
    'outbound.deleted',
    'outbound.scheduled',
    'outbound.sending',
    'outbound.sent',
    'outbound.cancelled',
    'outbound_recipient.sent',
    'outbound_recipient.failed',
    'outbound_recipient.skipped',
  ],
  // children before parents (rebuild empties them in this order)
  tables: ['outbound_recipients', 'outbound_collections'],
  project(events, writes) {
    const collections = writes.table(COLLECTIONS);
    const recipients = writes.table(RECIPIENTS);
    for (const e of events) {
      const t = e.tenant_id;
      const at = e.created_at;
      switch (e.type) {
        case 'outbound.created': {
          const p = e.payload;
          collections.insert({
            tenant_id: t,
            id: p.id,
            name: p.name,
            channel_id: p.channel_id,
            subject: p.subject,
            body: p.body,
            audience: p.audience,
            send_at: p.send_at,
            state: 'draft',
            author: null,
            member_id: null,
            audience_size: 0,
            pending: 0,
            sent: 0,
            failed: 0,
            skipped: 0,
            cancelled: 0,
            cancel_reason: null,
            created_at: at,
            updated_at: at,
            scheduled_at: null,
            sending_at: null,
            sent_at: null,
            cancelled_at: null,
          });
          break;
        }
        case 'outbound.updated': {
          const { id, audience, ...changes } = e.payload;
          collections.patch({ tenant_id: t, id }, { ...changes, ...(audience !== undefined ? { audience } : {}), updated_at: at });
          break;
        }
        case 'outbound.deleted':
          collections.delete({ tenant_id: t, id: e.payload.id });
          break;
        case 'outbound.scheduled':
          collections.patch(
            { tenant_id: t, id: e.payload.id },
            { state: 'scheduled', send_at: e.payload.send_at, author: e.payload.author, member_id: e.payload.member_id, scheduled_at: at, updated_at: at },
          );
          break;
        case 'outbound.sending': {
          const p = e.payload;
          let skipped = 0;
          p.recipients.forEach((r, position) => {
            if (r.skipped) skipped++;
            recipients.insert({
              tenant_id: t,
              collection_id: p.id,
              contact_id: r.contact_id,
              id: recipientId(t, p.id, r.contact_id),
              position,
              status: r.skipped ? 'skipped' : 'pending',
              conversation_id: null,
              error_code: r.skipped ?? null,
              error_message: r.skipped ? SKIP_MESSAGES[r.skipped] : null,
              created_at: at,
              updated_at: at,
            });
          });
          collections.patch(
            { tenant_id: t, id: p.id },
            {
              state: 'sending',
              author: p.author,
              member_id: p.member_id,
              audience_size: p.audience_size,
              sending_at: at,
              updated_at: at,
            },
            // Counters only ever move by increments: a batch may fold this with recipients' outcomes on the same row.
            { pending: p.recipients.length - skipped, skipped },
          );
          break;
        }
        case 'outbound.sent':
          collections.patch({ tenant_id: t, id: e.payload.id }, { state: 'sent', sent_at: at, updated_at: at });
          break;
        case 'outbound.cancelled': {
          const p = e.payload;
          for (const contactId of p.contact_ids)
            recipients.patch({ tenant_id: t, collection_id: p.id, contact_id: contactId }, { status: 'cancelled', updated_at: at });
          // Every pending recipient is in contact_ids (decided under the append lock), so pending drops to 0.
          collections.patch(
            { tenant_id: t, id: p.id },
            { state: 'cancelled', cancel_reason: p.reason, cancelled_at: at, updated_at: at },
            { pending: -p.contact_ids.length, cancelled: p.contact_ids.length },
          );
          break;
        }
        case 'outbound_recipient.sent': {
          const p = e.payload;
          recipients.patch(
            { tenant_id: t, collection_id: p.collection_id, contact_id: p.contact_id },
            { status: 'sent', conversation_id: p.conversation_id, updated_at: at },
          );
          collections.patch({ tenant_id: t, id: p.collection_id }, { updated_at: at }, { sent: 1, pending: -1 });
          break;
        }
        case 'outbound_recipient.failed': {
          const p = e.payload;
          recipients.patch(
            { tenant_id: t, collection_id: p.collection_id, contact_id: p.contact_id },
            { status: 'failed', error_code: p.code, error_message: p.message, updated_at: at },
          );
          collections.patch({ tenant_id: t, id: p.collection_id }, { updated_at: at }, { failed: 1, pending: -1 });
          break;
        }
        case 'outbound_recipient.skipped': {
          const p = e.payload;
          recipients.patch(
            { tenant_id: t, collection_id: p.collection_id, contact_id: p.contact_id },
            { status: 'skipped', error_code: p.reason, error_message: SKIP_MESSAGES[p.reason], updated_at: at },
          );
          collections.patch({ tenant_id: t, id: p.collection_id }, { updated_at: at }, { skipped: 1, pending: -1 });
          break;
        }
        default: {
          const never: never = e;
          throw new Error(`outbound projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};

export const SKIP_MESSAGES: Record<'archived' | 'erased' | 'unknown_contact', string> = {
  archived: 'The contact is archived.',
  erased: 'The contact was erased.',
  unknown_contact: 'No contact of the workspace has this id.',
};
