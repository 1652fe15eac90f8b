import type { Sealer } from '../../platform/crypto/seal.js';
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { isUuid } from '../../platform/ids.js';
import { batchedOn } from '../../platform/db/batched.js';
import { keyProbes, keySlots, padKeys, PLANNED_PER_CALL, WORKSPACE_PARAM } from '../../platform/db/prepared.js';
import { arrayOf, boolean, constant, dateTime, int, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { AUTHOR_TYPES, PART_TYPES, PRIORITIES, ROUTING_RULES } from './conversations.events.js';
import type { ConversationState, ConversationView, PartView, PartType, Author, Priority } from './conversations.decider.js';
import { attributeValuesSchema, type AttributeValue } from '../conversation-attributes/index.js';
import { findKey } from '../keys/index.js';
import { tagRefSchema, tagRefsSql, type TagRef } from '../tags/index.js';

export interface ConversationRow {
  tenant_id: string;
  id: string;
  channel_id: string;
  contact_id: string;
  external_id: string | null;
  subject: string | null;
  state: ConversationState;
  snoozed_until: Date | null;
  assignee_id: string | null;
  team_id: string | null;
  tag_ids: string[];
  priority: Priority;
  /** values by attribute name (personal data: cleared when the contact is erased) */
  custom_attributes: Record<string, AttributeValue>;
  /** the tags by id and current name (tagRefsSql); every query that renders a conversation selects it */
  tags: TagRef[];
  /** what other capabilities' SQL adds to the row (ConversationRows.select), when the query selected it */
  added?: unknown[];
  parts_count: number;
  contact_erased: boolean;
  /** merged into this conversation (conversation.merged): closed and read-only */
  merged_into: string | null;
  created_at: Date;
  updated_at: Date;
  last_part_at: Date;
}

export interface PartRow {
  id: string;
  conversation_id: string;
  part_type: PartType;
  body: string | null;
  author_type: Author['type'];
  author_id: string;
  external_id: string | null;
  attachments: Attachment[];
  /** the rest of its conversation_part.created payload (conversations.projection.ts): the state a state change left */
  details: PartDetails;
  /** how its content went, when it did: redacted, unsent (by its author) or erased (with its contact) */
  redacted: 'redacted' | 'unsent' | 'erased' | null;
  created_at: Date;
}

/** Parts returned inline with a conversation; longer histories are paged at /parts. */
export const INLINE_PARTS = 500;

export const conversationList: ListSpec = {
  itemType: 'conversation',
  sorts: { created_at: { column: 'created_at', kind: 'timestamp' }, updated_at: { column: 'updated_at', kind: 'timestamp' } },
  defaultSort: 'updated_at',
  defaultOrder: 'desc',
};

export const renderPart = (p: PartRow): ConversationPart => ({
  type: 'conversation_part',
  id: p.id,
  part_type: p.part_type,
  body: p.body,
  author: { type: p.author_type, id: p.author_id },
  external_id: p.external_id,
  attachments: p.attachments,
  redacted: p.redacted !== null,
  ...(p.redacted === 'unsent' ? { unsent: true } : {}),
  ...p.details,
  created_at: p.created_at.toISOString(),
});

/** A conversation as rendered from its row: the answer without the fields other capabilities add (answer-fields.ts). */
export const renderConversation = (c: ConversationRow): ConversationRecord => ({
  type: 'conversation',
  id: c.id,
  channel_id: c.channel_id,
  contact_id: c.contact_id,
  // null once the contact is erased (the id stays, so counts and history stay true)
  contact: c.contact_erased ? null : { type: 'contact', id: c.contact_id },
  external_id: c.external_id,
  subject: c.subject,
  state: c.state,
  snoozed_until: c.snoozed_until?.toISOString() ?? null,
  assignee_id: c.assignee_id,
  team_id: c.team_id,
  priority: c.priority,
  custom_attributes: c.custom_attributes,
  tags: c.tags,
  parts_count: c.parts_count,
  merged_into: c.merged_into ?? null,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
  last_part_at: c.last_part_at.toISOString(),
});

/**
 * How conversations are rendered for answers: the columns other capabilities add to the row's statement (SQL over
 * the conversation's row, selected with it: answer-fields.ts) and the render that reads them. ConversationAnswers
 * is the one; every query that renders a conversation for an answer takes it, so none leaves an added field out.
 */
export interface ConversationRows {
  /** the added columns' select list over the row aliased `alias` (one column, `added`), or null for none */
  select(alias: string): string | null;
  render(row: ConversationRow): ConversationRecord;
}

const addedColumns = (rows: ConversationRows, alias: string): string => {
  const sql = rows.select(alias);
  return sql ? `, ${sql} AS added` : '';
};

/** The workspace's conversations, each with its tags by name: the query every rendered conversation comes from. */
export const conversationsOf = (db: Db, tenantId: string, rows: ConversationRows) =>
  db('conversations')
    .where({ tenant_id: tenantId })
    .select('conversations.*', db.raw(`${tagRefsSql('conversations')} AS tags${addedColumns(rows, 'conversations')}`));

/** How many merges a thread's message follows to the conversation it is filed in (a chain of merges is refused longer). */
const MAX_MERGE_HOPS = 10;

/**
 * The conversation a message for this one is filed in: itself, or the one it was merged into (and so on, as a
 * merged conversation may have been merged into one that was merged in turn). Undefined when there is none.
 */
export async function liveConversation(db: Db, tenantId: string, c: StoredConversation | undefined): Promise<StoredConversation | undefined> {
  let at = c;
  for (let hops = 0; at?.merged_into && hops < MAX_MERGE_HOPS; hops++) at = await findConversation(db, tenantId, at.merged_into);
  return at;
}

/** The ids of a workspace's conversations a compiled filter matches (conversationWhere), oldest first, at most `limit`. */
export const conversationIdsWhere = (db: Db, tenantId: string, where: { sql: string; bindings: readonly unknown[] }, limit: number): Promise<string[]> =>
  db('conversations')
    .where({ tenant_id: tenantId })
    .andWhereRaw(where.sql, where.bindings as never[])
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(limit)
    .pluck('id');

/** A conversation's stored row, without the tag names a rendering joins: what commands decide on (the hot path). */
export type StoredConversation = Omit<ConversationRow, 'tags'>;

export async function findConversation(db: Db, tenantId: string, id: string): Promise<StoredConversation | undefined> {
  return isUuid(id) ? conversationsById(db, tenantId, id) : undefined;
}

/**
 * Conversations by id, the calls made together through one handle as one statement (platform/db/batched.ts): a
 * group commit loads its commands at once, and 14 replies cost one statement instead of 14. One id by scalars (a
 * generic plan), several planned per call (see oneOrMany). Each caller gets a row of its own.
 */
const conversationsById = batchedOn<Db, string, StoredConversation | undefined>(
  async (db, tenantId, ids) => {
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
    // A group's few: probes by the key with a kept plan (keySlots).
    const slots = wanted.length > 1 ? keySlots(wanted.length) : null;
    const probes = slots === null ? null : keyProbes('conversations', 'id', tenantId, wanted, slots);
    const res = probes
      ? await db.raw(probes.sql, probes.bindings)
      : await db.raw(byOneOrMany(wanted, `SELECT * FROM conversations WHERE tenant_id = ? AND ${oneOrMany('id', wanted)}`), [
          tenantId,
          (wanted.length === 1 ? wanted[0]! : wanted) as Knex.RawBinding,
        ]);
    const byId = new Map((res.rows as StoredConversation[]).map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = byId.get(id.toLowerCase());
      return row && { ...row };
    });
  },
  { gather: 'microtask' },
);

/** A conversation as answers render it (with its tags by name). */
export async function findRenderedConversation(db: Db, tenantId: string, id: string, rows: ConversationRows): Promise<ConversationRow | undefined> {
  return isUuid(id) ? conversationsOf(db, tenantId, rows).andWhere({ id }).first() : undefined;
}

/** The conversation a channel filed for the bridge's thread id (spec 2.6: the dedup key). */
export async function findThread(db: Db, tenantId: string, channelId: string, externalId: string): Promise<StoredConversation | undefined> {
  return db('conversations').where({ tenant_id: tenantId, channel_id: channelId, external_id: externalId }).first();
}

/** Whether the thread already holds the bridge's message id. */
export async function messageFiled(db: Db, tenantId: string, conversationId: string, messageId: string): Promise<boolean> {
  return !!(await db('conversation_parts').where({ tenant_id: tenantId, conversation_id: conversationId, external_id: messageId }).first('id'));
}

type PartJson = Omit<PartRow, 'created_at'> & { created_at: string };

/**
 * `column = ?` for one id, `column = ANY(?)` for several. Batches of the answers' reads mostly hold one id, and the
 * scalar form keeps a generic plan (the array form cost 0.26 ms of planning a call under the write load). The array
 * form is planned per call (platform/db/prepared.ts): a generic plan costed for a workspace that looked tiny scanned
 * the whole workspace and filtered the ids (3.5 ms for a group of 30 answers in a workspace of 10,000).
 */
const oneOrMany = (column: string, ids: string[]): string => (ids.length === 1 ? `${column} = ?::uuid` : `${column} = ANY(?::uuid[])`);
/** The text of a read by `oneOrMany`: planned per call for several keys. */
const byOneOrMany = (keys: readonly unknown[], sql: string): string => (keys.length === 1 ? sql : PLANNED_PER_CALL + sql);

/**
 * Parts with their conversations, as reply and part routes answer, in one statement (the answers of writes are
 * batched per workspace); null where missing.
 */
export async function partsWithConversations(
  db: Db,
  tenantId: string,
  wanted: { conversationId: string; partId: string }[],
  rows: ConversationRows,
): Promise<(PartWithConversationRecord | null)[]> {
  const ok = wanted.filter((w) => isUuid(w.conversationId) && isUuid(w.partId));
  // One wanted part (the usual batch) as scalars, for the reason oneOrMany gives; up to keySlots' largest size, as
  // many rows of scalars, padded with NULL keys (which find nothing) to a size that keeps one generic plan; past
  // that, as arrays, planned per call.
  const slots = ok.length > 1 ? keySlots(ok.length) : null;
  const padded = slots === null ? [] : padKeys(ok, slots);
  const [wantedSql, wantedBindings] =
    ok.length === 1
      ? ['(SELECT ?::uuid, ?::uuid)', [ok[0]!.conversationId, ok[0]!.partId]]
      : slots !== null
        ? [`(VALUES ${padded.map(() => '(?::uuid, ?::uuid)').join(', ')})`, padded.flatMap((w) => [w?.conversationId ?? null, w?.partId ?? null])]
        : ['unnest(?::uuid[], ?::uuid[])', [ok.map((w) => w.conversationId), ok.map((w) => w.partId)]];
  // Each conversation is looked up by its key, in a lateral subquery Postgres may not flatten (OFFSET 0), the
  // workspace as WORKSPACE_PARAM. As a join with the workspace's id as a constant, a workspace the statistics did not
  // count was read whole, the ids filtered (2,001 rows read for 14 answers; 28,014 as a lateral lookup with the
  // constant: test/projections/tenant-statistics.e2e.test.ts).
  const res = ok.length
    ? await db.raw(
        (ok.length > 1 && slots === null ? PLANNED_PER_CALL : '') +
          `SELECT c.*, ${tagRefsSql('c')} AS tags${addedColumns(rows, 'c')}, x.part_id AS wanted_part, (
            SELECT row_to_json(p) FROM (
              SELECT id, conversation_id, part_type, body, author_type, author_id, external_id, attachments, details, redacted, created_at
              FROM conversation_parts WHERE tenant_id = c.tenant_id AND conversation_id = c.id AND id = x.part_id
            ) p) AS part
         FROM ${wantedSql} AS x(conversation_id, part_id)
         JOIN LATERAL (SELECT * FROM conversations c WHERE c.tenant_id = ${WORKSPACE_PARAM} AND c.id = x.conversation_id OFFSET 0) c ON true`,
        [...wantedBindings, tenantId] as Knex.RawBinding[],
      )
    : { rows: [] };
  const byPart = new Map<string, ConversationRow & { wanted_part: string; part: PartJson | null }>();
  for (const r of res.rows as (ConversationRow & { wanted_part: string; part: PartJson | null })[]) byPart.set(`${r.id}/${r.wanted_part}`, r);
  return wanted.map((w) => {
    const row = byPart.get(`${w.conversationId.toLowerCase()}/${w.partId.toLowerCase()}`);
    if (!row?.part) return null;
    const { part, wanted_part: _w, ...conv } = row;
    return { ...renderPart({ ...part, created_at: new Date(part.created_at) }), conversation: rows.render(conv) };
  });
}

/** The statement conversationsWithParts sends for valid ids (exported for its plan's test). */
export function conversationsWithPartsQuery(tenantId: string, ids: string[], rows: ConversationRows): { sql: string; bindings: Knex.RawBinding[] } {
  const select = `SELECT c.*, ${tagRefsSql('c')} AS tags${addedColumns(rows, 'c')}, COALESCE((
            SELECT json_agg(p ORDER BY p.seq) FROM (
              SELECT id, conversation_id, seq, part_type, body, author_type, author_id, external_id, attachments, details, redacted, created_at
              FROM conversation_parts WHERE tenant_id = c.tenant_id AND conversation_id = c.id ORDER BY seq LIMIT ?
            ) p), '[]') AS parts`;
  // A few ids (a group's answers): a probe of the primary key each, padded to a size that keeps its generic plan
  // (keySlots): the statement is not planned again on every call.
  const slots = ids.length > 1 ? keySlots(ids.length) : null;
  if (slots !== null) {
    const probes = keyProbes('conversations', 'id', tenantId, ids, slots);
    return { sql: `${select} FROM (${probes.sql}) c`, bindings: [INLINE_PARTS, ...probes.bindings] };
  }
  return {
    sql: byOneOrMany(
      ids,
      `${select}
         FROM conversations c WHERE c.tenant_id = ? AND ${oneOrMany('c.id', ids)}`,
    ),
    bindings: [INLINE_PARTS, tenantId, (ids.length === 1 ? ids[0]! : ids) as Knex.RawBinding],
  };
}

/**
 * Conversations with their first INLINE_PARTS parts, in one statement (the hot read path; the routes batch the
 * reads of a workspace); null where missing.
 */
export async function conversationsWithParts(db: Db, tenantId: string, ids: string[], rows: ConversationRows): Promise<(ConversationRecordWithParts | null)[]> {
  const ok = ids.filter(isUuid);
  let res: { rows: unknown[] } = { rows: [] };
  if (ok.length) {
    const q = conversationsWithPartsQuery(tenantId, ok, rows);
    res = await db.raw(q.sql, q.bindings);
  }
  const byId = new Map<string, ConversationRow & { parts: PartJson[] }>();
  for (const r of res.rows as (ConversationRow & { parts: PartJson[] })[]) byId.set(r.id, r);
  return ids.map((id) => {
    const row = byId.get(id.toLowerCase());
    if (!row) return null;
    // json_agg renders timestamps as Postgres text; parts go out in the same ISO form as everywhere else.
    return { ...rows.render(row), parts: row.parts.map((p) => renderPart({ ...p, created_at: new Date(p.created_at) })) };
  });
}

/** A contact's conversations, oldest first (the subject-access export). */
export async function conversationsOfContact(db: Db, tenantId: string, contactId: string, rows: ConversationRows): Promise<ConversationRow[]> {
  return isUuid(contactId)
    ? conversationsOf(db, tenantId, rows)
        .andWhere({ contact_id: contactId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
    : [];
}

/** Every part of a conversation in order, a page at a time: those after `afterSeq`, at most `limit`. */
export async function partsPage(db: Db, tenantId: string, conversationId: string, afterSeq: number, limit: number): Promise<(PartRow & { seq: number })[]> {
  const rows = await db('conversation_parts')
    .where({ tenant_id: tenantId, conversation_id: conversationId })
    .andWhere('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit);
  return rows.map((r: PartRow & { seq: number | string }) => ({ ...r, seq: Number(r.seq) }));
}

/** The conversations assigned to a team, by id (a team's deletion names them). */
export async function conversationIdsOfTeam(db: Db, tenantId: string, teamId: string): Promise<string[]> {
  return db('conversations').where({ tenant_id: tenantId, team_id: teamId }).orderBy('id').pluck('id');
}

export const conversationView = (c: StoredConversation | undefined): ConversationView | null =>
  c
    ? {
        id: c.id,
        channelId: c.channel_id,
        state: c.state,
        assigneeId: c.assignee_id,
        teamId: c.team_id,
        tagIds: c.tag_ids,
        mergedInto: c.merged_into ?? null,
        contactId: c.contact_id,
      }
    : null;

/** The conversations carrying a tag, by id (a tag's deletion names them). */
export async function conversationIdsTagged(db: Db, tenantId: string, tagId: string): Promise<string[]> {
  return db('conversations').where({ tenant_id: tenantId }).whereRaw('tag_ids @> ARRAY[?]::uuid[]', [tagId]).orderBy('id').pluck('id');
}

const states = oneOfStrings(['open', 'closed', 'snoozed']);

export const attachmentSchema = object(
  {
    url: str({ description: "Where it downloads from: the sender's URL, or this service's (an e-mail's attachment, an upload: with a key)." }),
    upload_id: uuid,
    name: str(),
    content_type: str(),
    size: integer({ minimum: 0 }),
  },
  { title: 'Attachment', optional: ['upload_id', 'name', 'content_type', 'size'] },
);
type Attachment = Static<typeof attachmentSchema>;

export const partSchema = object(
  {
    type: constant('conversation_part'),
    id: uuid,
    part_type: oneOfStrings(PART_TYPES),
    body: nullable(str()),
    author: object({ type: oneOfStrings(AUTHOR_TYPES), id: str() }, { title: 'Author' }),
    external_id: nullable(str({ description: "The bridge's message id, for inbound messages that carried one." })),
    attachments: arrayOf(attachmentSchema),
    redacted: boolean({
      description: 'true once the content is gone (redacted, unsent or erased with the contact): body is null and attachments empty.',
    }),
    unsent: constant(true, { description: 'present when its author retracted it (unsend)' }),
    sent_at: dateTime,
    state: states,
    snoozed_until: nullable(dateTime),
    assignee_id: nullable(uuid),
    team_id: nullable(str()),
    priority: oneOfStrings(PRIORITIES),
    assigned_by: object(
      { rule: oneOfStrings(ROUTING_RULES), team_id: uuid },
      {
        title: 'AssignedBy',
        description:
          "On an assignment part routing appended (author `{type: 'system', id: 'routing'}`): the team's assignment rule that chose `assignee_id`, and the team. Absent on assignments made by a teammate or an API key.",
      },
    ),
    merged_from: uuid,
    created_at: dateTime,
  },
  {
    title: 'ConversationPart',
    optional: ['unsent', 'sent_at', 'state', 'snoozed_until', 'assignee_id', 'team_id', 'priority', 'assigned_by', 'merged_from'],
  },
);
export type ConversationPart = Static<typeof partSchema>;
type PartDetails = Pick<ConversationPart, 'sent_at' | 'state' | 'snoozed_until' | 'assignee_id' | 'team_id' | 'priority' | 'assigned_by'>;

/**
 * A conversation's own fields, as its row gives them. The answer adds what other capabilities keep of it (its `sla`,
 * `statistics`, `rating`): ConversationAnswers (answer-fields.ts) composes the `Conversation` schema.
 */
export const conversationRecordSchema = object(
  {
    type: constant('conversation'),
    id: uuid,
    channel_id: uuid,
    contact_id: uuid,
    contact: nullable(object({ type: constant('contact'), id: uuid }, { title: 'ContactRef' })),
    external_id: nullable(str()),
    subject: nullable(str()),
    state: states,
    snoozed_until: nullable(dateTime),
    assignee_id: nullable(uuid),
    team_id: nullable(str()),
    priority: oneOfStrings(PRIORITIES),
    custom_attributes: attributeValuesSchema,
    tags: arrayOf(tagRefSchema, { description: 'Its tags by id and current name, by name.' }),
    parts_count: int,
    created_at: dateTime,
    updated_at: dateTime,
    last_part_at: dateTime,
    merged_into: nullable(uuid, { description: 'The conversation this one was merged into: it is closed and read-only (POST /api/conversations/{id}/merge).' }),
  },
  { title: 'ConversationRecord' },
);
export type ConversationRecord = Static<typeof conversationRecordSchema>;

export type ConversationRecordWithParts = ConversationRecord & { parts: ConversationPart[] };

export type PartWithConversationRecord = ConversationPart & { conversation: ConversationRecord };

export const viewCountsSchema = object(
  {
    type: constant('list'),
    as_of_seq: int,
    data: arrayOf(
      object(
        {
          type: constant('view_count'),
          id: str({ description: "A built-in view (`open`, `unassigned`, `assigned_to_me`, `snoozed`, `closed`, `all`) or a custom view's id." }),
          name: str(),
          kind: oneOfStrings(['builtin', 'custom']),
          count: int,
        },
        { title: 'ViewCount' },
      ),
    ),
  },
  {
    title: 'ViewCounts',
    description:
      'One row per built-in view, then per custom view the caller can see; `as_of_seq` is the seq of the last event the counts reflect. Not paginated.',
  },
);
export type ViewCounts = Static<typeof viewCountsSchema>;

/** A part as redact and unsend decide on it, with the member who wrote it. */
export async function partView(db: Db, tenantId: string, partId: string): Promise<PartView | null> {
  if (!isUuid(partId)) return null;
  const row = (await db('conversation_parts as p')
    .join('conversations as c', (j) => j.on('c.tenant_id', 'p.tenant_id').andOn('c.id', 'p.conversation_id'))
    .where({ 'p.tenant_id': tenantId, 'p.id': partId })
    .first('p.id', 'p.conversation_id', 'c.channel_id', 'p.part_type', 'p.author_type', 'p.author_id', 'p.external_id', 'p.created_at', 'p.redacted')) as
    | (Pick<PartRow, 'id' | 'conversation_id' | 'part_type' | 'author_type' | 'author_id' | 'external_id' | 'created_at' | 'redacted'> & { channel_id: string })
    | undefined;
  if (!row) return null;
  const authorMemberId =
    row.author_type === 'member' ? row.author_id : row.author_type === 'api_key' ? ((await findKey(db, tenantId, row.author_id))?.member_id ?? null) : null;
  return {
    id: row.id,
    conversationId: row.conversation_id,
    channelId: row.channel_id,
    partType: row.part_type as PartType,
    author: { type: row.author_type as Author['type'], id: row.author_id },
    authorMemberId,
    externalId: row.external_id,
    createdAt: row.created_at,
    redacted: row.redacted,
  };
}

/** The ids of a contact's conversations and of every part in them: what erasing the contact makes unreadable. */
export async function contentOfContact(
  db: Db,
  tenantId: string,
  contactId: string,
): Promise<{ conversationIds: string[]; partIds: string[]; threads: { channelId: string; externalId: string }[] }> {
  const rows = (await db('conversations as c')
    .leftJoin('conversation_parts as p', (j) => j.on('p.tenant_id', 'c.tenant_id').andOn('p.conversation_id', 'c.id'))
    .where({ 'c.tenant_id': tenantId, 'c.contact_id': contactId })
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }, { column: 'p.seq' }])
    .select('c.id as conversation_id', 'p.id as part_id', 'c.channel_id', 'c.external_id')) as {
    conversation_id: string;
    part_id: string | null;
    channel_id: string;
    external_id: string | null;
  }[];
  const threads = new Map(rows.filter((r) => r.external_id !== null).map((r) => [r.conversation_id, { channelId: r.channel_id, externalId: r.external_id! }]));
  return {
    conversationIds: [...new Set(rows.map((r) => r.conversation_id))],
    partIds: rows.flatMap((r) => (r.part_id ? [r.part_id] : [])),
    threads: [...threads.values()],
  };
}

/**
 * What is kept of an erased bridge thread: a keyed hash of its channel and thread id (no personal data), by which a
 * later post to it is recognised. The key is derived from SERVICE_CHANNELS_SECRET, like the channel secrets' seal.
 */
export const threadKey = (sealer: Sealer, tenantId: string, channelId: string, externalId: string): string =>
  sealer.mac('channel', tenantId, `thread|${channelId.toLowerCase()}|${externalId}`);

/** Whether the thread with this key was erased (its tombstone, left by contact.erased). */
export async function threadErased(db: Db, tenantId: string, key: string): Promise<boolean> {
  return !!(await db('conversation_thread_tombstones').where({ tenant_id: tenantId, thread_key: key }).first('thread_key'));
}

/**
 * The conversations' routing facts as a subquery (alias it with `.as('c')`), for
 * another capability's join (SLA decisions and reports) without naming this table.
 */
export const conversationFacts = (db: Db) => db('conversations').select('tenant_id', 'id', 'state', 'priority', 'team_id', 'channel_id', 'assignee_id');
