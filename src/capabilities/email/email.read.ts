import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import { arrayOf, bool, constant, dateTime, int, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import type { EMAIL_MESSAGES } from './email.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `email_messages` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type EmailMessageRow = RowOf<typeof EMAIL_MESSAGES> & {
  direction: 'in' | 'out';
  threaded_by: EmailMessage['threaded_by'] | null;
  recipients: Pick<EmailMessage, 'to' | 'cc'> | null;
  attachments: EmailMessage['attachments'] | null;
  authentication: EmailMessage['authentication'] | null;
  delivery_status: 'sent' | 'failed' | null;
};

const messagesOf = (db: Db, tenantId: string) => db('email_messages').where({ tenant_id: tenantId });

/** Whether the channel filed or sent a message with this Message-ID hash already. */
export async function messageKnown(db: Db, tenantId: string, channelId: string, hash: string): Promise<EmailMessageRow | undefined> {
  return messagesOf(db, tenantId).andWhere({ channel_id: channelId, message_id_hash: hash }).orderBy('created_at').first();
}

/** The conversation of the first of these Message-ID hashes the channel knows (sent or received), in the order given. */
export async function conversationOfMessages(db: Db, tenantId: string, channelId: string, hashes: string[]): Promise<string | null> {
  if (hashes.length === 0) return null;
  const rows: { message_id_hash: string; conversation_id: string }[] = await messagesOf(db, tenantId)
    .andWhere({ channel_id: channelId })
    .whereIn('message_id_hash', hashes)
    .select('message_id_hash', 'conversation_id');
  for (const h of hashes) {
    const hit = rows.find((r) => r.message_id_hash === h);
    if (hit) return hit.conversation_id;
  }
  return null;
}

export async function emailOfPart(db: Db, tenantId: string, partId: string): Promise<EmailMessageRow | undefined> {
  return isUuid(partId) ? messagesOf(db, tenantId).andWhere({ part_id: partId }).first() : undefined;
}

/** The conversation's messages with their Message-IDs, oldest first: the References of a reply. */
export async function messageIdsOf(
  db: Db,
  tenantId: string,
  conversationId: string,
): Promise<{ message_id: string; direction: string; automated: boolean; from_address: string | null }[]> {
  return messagesOf(db, tenantId)
    .andWhere({ conversation_id: conversationId })
    .whereNotNull('message_id')
    .orderBy(['created_at', 'part_id'])
    .select('message_id', 'direction', 'automated', 'from_address');
}

export interface AttachmentRow {
  tenant_id: string;
  part_id: string;
  index: number;
  conversation_id: string;
  size: number;
  sealed: string;
}

export async function attachmentRow(db: Db, tenantId: string, conversationId: string, partId: string, index: number): Promise<AttachmentRow | undefined> {
  if (!isUuid(conversationId) || !isUuid(partId)) return undefined;
  return db('email_attachments').where({ tenant_id: tenantId, conversation_id: conversationId, part_id: partId, index }).first();
}

export async function attachmentCount(db: Db, tenantId: string, partId: string): Promise<number> {
  const row = await db('email_attachments').where({ tenant_id: tenantId, part_id: partId }).count<{ n: string }[]>({ n: '*' });
  return Number(row[0]?.n ?? 0);
}

const addressSchema = object({ address: str(), name: nullable(str()) }, { title: 'EmailAddress' });

export const renderEmail = (r: EmailMessageRow): EmailMessage => ({
  type: 'email_message',
  part_id: r.part_id,
  conversation_id: r.conversation_id,
  channel_id: r.channel_id,
  direction: r.direction,
  message_id: r.message_id,
  threaded_by: r.threaded_by,
  from: r.from_address ? { address: r.from_address, name: r.from_name } : null,
  to: r.recipients?.to ?? [],
  cc: r.recipients?.cc ?? [],
  subject: r.subject,
  html: r.html,
  quoted: r.quoted,
  attachments: r.attachments ?? [],
  authentication: r.authentication,
  suspicious: r.suspicious,
  automated: r.automated,
  delivery: r.delivery_status ? { status: r.delivery_status, code: r.delivery_code, error: r.delivery_error } : null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const verdict = oneOfStrings(['pass', 'fail', 'neutral', 'none', 'softfail', 'temperror', 'permerror', 'policy']);

export const emailMessageSchema = object(
  {
    type: constant('email_message'),
    part_id: uuid,
    conversation_id: uuid,
    channel_id: uuid,
    direction: oneOfStrings(['in', 'out']),
    message_id: nullable(str({ description: 'The Message-ID; null once erased.' })),
    threaded_by: nullable(oneOfStrings(['new', 'in_reply_to', 'references', 'reply_address'])),
    from: nullable(addressSchema),
    to: arrayOf(addressSchema),
    cc: arrayOf(addressSchema),
    subject: nullable(str()),
    html: nullable(str({ description: 'The HTML part, sanitised (no scripts, styles, event handlers or remote schemes other than http, https, mailto).' })),
    quoted: nullable(str({ description: 'The quoted history the reply carried, apart from its new text (the part body).' })),
    attachments: arrayOf(object({ name: nullable(str()), content_type: str(), size: integer({ minimum: 0 }) }, { title: 'EmailAttachment' })),
    authentication: nullable(object({ spf: verdict, dkim: verdict, dmarc: verdict }, { title: 'EmailAuthentication' })),
    suspicious: bool,
    automated: bool,
    delivery: nullable(object({ status: oneOfStrings(['sent', 'failed']), code: nullable(int), error: nullable(str()) }, { title: 'EmailDelivery' })),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'EmailMessage' },
);
export type EmailMessage = Static<typeof emailMessageSchema>;
