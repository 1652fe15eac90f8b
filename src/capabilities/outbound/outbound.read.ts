import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { anyObject, arrayOf, constant, dateTime, int, nullable, object, oneOf, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { Audience, OutboundAuthor, OutboundEvent } from './outbound.events.js';
import type { COLLECTIONS, RECIPIENTS } from './outbound.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

export const MAX_COLLECTIONS = 150;
export const STATES = ['draft', 'scheduled', 'sending', 'sent', 'cancelled'] as const;
export type CollectionState = (typeof STATES)[number];
export const RECIPIENT_STATUSES = ['pending', 'sent', 'failed', 'skipped', 'cancelled'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
type CancelReason = Extract<OutboundEvent, { type: 'outbound.cancelled' }>['payload']['reason'];

/** A row of `outbound_collections` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type CollectionRow = RowOf<typeof COLLECTIONS> & {
  audience: Audience;
  state: CollectionState;
  author: OutboundAuthor | null;
  cancel_reason: CancelReason | null;
};

/** A row of `outbound_recipients` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type RecipientRow = RowOf<typeof RECIPIENTS> & {
  status: RecipientStatus;
};

export const collectionsOf = (db: Db, tenantId: string) => db('outbound_collections').where({ tenant_id: tenantId });
export const recipientsOf = (db: Db, tenantId: string, collectionId: string) =>
  db('outbound_recipients').where({ tenant_id: tenantId, collection_id: collectionId });

export async function findCollection(db: Db, tenantId: string, id: string): Promise<CollectionRow | undefined> {
  return isUuid(id) ? collectionsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function allCollections(db: Db, tenantId: string): Promise<CollectionRow[]> {
  return collectionsOf(db, tenantId)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(MAX_COLLECTIONS);
}

export async function countCollections(db: Db, tenantId: string): Promise<number> {
  const row = (await collectionsOf(db, tenantId).count<{ n: string }[]>({ n: '*' }))[0];
  return Number(row?.n ?? 0);
}

export async function findRecipient(db: Db, tenantId: string, collectionId: string, contactId: string): Promise<RecipientRow | undefined> {
  return recipientsOf(db, tenantId, collectionId).andWhere({ contact_id: contactId }).first();
}

export async function pendingContactIds(db: Db, tenantId: string, collectionId: string): Promise<string[]> {
  return recipientsOf(db, tenantId, collectionId).andWhere({ status: 'pending' }).orderBy('position').pluck('contact_id');
}

export const recipientList: ListSpec = {
  itemType: 'outbound_recipient',
  sorts: { position: { column: 'position', kind: 'number' } },
  defaultSort: 'position',
  defaultOrder: 'asc',
  idIsUuid: true,
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const renderCollection = (c: CollectionRow): Outbound => ({
  type: 'outbound',
  id: c.id,
  name: c.name,
  channel_id: c.channel_id,
  subject: c.subject,
  body: c.body,
  audience: c.audience,
  send_at: iso(c.send_at),
  state: c.state,
  cancel_reason: c.cancel_reason,
  counts: { audience_size: c.audience_size, pending: c.pending, sent: c.sent, failed: c.failed, skipped: c.skipped, cancelled: c.cancelled },
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
  scheduled_at: iso(c.scheduled_at),
  sending_at: iso(c.sending_at),
  sent_at: iso(c.sent_at),
  cancelled_at: iso(c.cancelled_at),
});

export const renderRecipient = (r: RecipientRow): OutboundRecipient => ({
  type: 'outbound_recipient',
  id: r.id,
  collection_id: r.collection_id,
  contact_id: r.contact_id,
  position: r.position,
  status: r.status,
  conversation_id: r.conversation_id,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  updated_at: r.updated_at.toISOString(),
});

const audienceSchema = oneOf([
  object({ contact_ids: arrayOf(uuid) }, { title: 'AudienceContacts' }),
  object({ tag_ids: arrayOf(uuid) }, { title: 'AudienceTags' }),
  object({ query: anyObject({ description: 'The contacts filter language (POST /api/contacts/search).' }) }, { title: 'AudienceQuery' }),
]);

export const collectionSchema = object(
  {
    type: constant('outbound'),
    id: uuid,
    name: str(),
    channel_id: uuid,
    subject: nullable(str()),
    body: str({ description: "With its placeholders unrendered (the saved replies' placeholders)." }),
    audience: audienceSchema,
    send_at: nullable(dateTime),
    state: oneOfStrings(STATES),
    cancel_reason: nullable(oneOfStrings(['requested', 'audience_too_large', 'audience_invalid'])),
    counts: object({ audience_size: int, pending: int, sent: int, failed: int, skipped: int, cancelled: int }, { title: 'OutboundCounts' }),
    created_at: dateTime,
    updated_at: dateTime,
    scheduled_at: nullable(dateTime),
    sending_at: nullable(dateTime),
    sent_at: nullable(dateTime),
    cancelled_at: nullable(dateTime),
  },
  { title: 'Outbound' },
);
export type Outbound = Static<typeof collectionSchema>;

export const collectionListSchema = object(
  { type: constant('list'), data: arrayOf(collectionSchema, { maxItems: MAX_COLLECTIONS }) },
  { title: 'OutboundList', description: 'Every outbound collection of the workspace (at most 150), newest first: unpaginated, so no `pages`.' },
);
export type OutboundList = Static<typeof collectionListSchema>;

export const deletedCollectionSchema = object({ type: constant('outbound'), id: uuid, deleted: constant(true) }, { title: 'DeletedOutbound' });
export type DeletedOutbound = Static<typeof deletedCollectionSchema>;

export const recipientSchema = object(
  {
    type: constant('outbound_recipient'),
    id: uuid,
    collection_id: uuid,
    contact_id: uuid,
    position: int,
    status: oneOfStrings(RECIPIENT_STATUSES),
    conversation_id: nullable(uuid),
    error: nullable(object({ code: str(), message: str() }, { title: 'OutboundRecipientError' })),
    updated_at: dateTime,
  },
  { title: 'OutboundRecipient' },
);
export type OutboundRecipient = Static<typeof recipientSchema>;

/**
 * Every recipient record of a contact across the workspace's collections (for the contact's subject-access
 * export), oldest first, with the collection's name.
 */
export async function recipientsOfContact(db: Db, tenantId: string, contactId: string): Promise<(OutboundRecipient & { collection_name: string })[]> {
  if (!isUuid(contactId)) return [];
  const rows: (RecipientRow & { collection_name: string })[] = await db('outbound_recipients as r')
    .join('outbound_collections as c', function () {
      this.on('c.tenant_id', '=', 'r.tenant_id').andOn('c.id', '=', 'r.collection_id');
    })
    .where({ 'r.tenant_id': tenantId, 'r.contact_id': contactId })
    .orderBy([{ column: 'r.created_at' }, { column: 'r.collection_id' }])
    .select('r.*', 'c.name as collection_name');
  return rows.map((r) => ({ ...renderRecipient(r), collection_name: r.collection_name }));
}
