// What other capabilities add to a conversation's answer. Conversations renders
// a conversation from its own row; a capability that keeps something about
// conversations in its own tables (sla: `sla` and `statistics`; csat: `rating`)
// adds its fields through the `conversationFields` extension point, in its own
// module: as SQL selected with the conversation's row, or by one batch read per
// page or group of answers; never one per conversation. So conversations imports none of them, and the next such
// feature edits one folder.
import type { Db } from '../../commands/command.js';
import { arrayOf, extend, type Loose } from '../../api/schemas.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import { extensionPoint, type Additions } from '../additions.js';
import {
  conversationRecordSchema,
  findRenderedConversation,
  INLINE_PARTS,
  partSchema,
  renderConversation,
  type ConversationRecord,
  type ConversationRow,
  type ConversationRows,
} from './conversations.read.js';

export type FieldValues = Record<string, unknown>;

/**
 * Fields a capability adds to every conversation answer, read one of two ways: as SQL over the conversation's row,
 * selected with it (no statement of its own: what a field that is one row of the capability's table should do), or
 * by a batch read of its own (one statement per page or group of answers, sent with the conversations' own: for
 * what takes more than SQL, such as sla's business-time arithmetic).
 */
export type ConversationFields = {
  /** the fields' schemas, by name, in the order the answer lists them */
  schema: Record<string, Loose>;
  /** the values of a conversation this capability holds nothing for */
  none: FieldValues;
  /**
   * The values as of a past seq, from the conversation's own events up to it (and its contact's erasure, when it
   * happened by then), oldest first. Absent: not kept for the past, `none` (the schema says so).
   */
  past?(events: readonly StoredEvent[]): FieldValues;
} & (
  | {
      /** a SQL expression over the conversation's row aliased `alias` (a JSON value, or null), selected with the row */
      sql(alias: string): string;
      /** the values from what `sql` gave for a row (JSON, as the driver parses it) */
      fromSql(value: unknown): FieldValues;
    }
  | {
      /** the values of a workspace's conversations by id (lower case), in one read; ids it holds nothing for are left out */
      read(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, FieldValues>>;
    }
);

type SqlFields = Extract<ConversationFields, { sql(alias: string): string }>;
type ReadFields = Extract<ConversationFields, { read(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, FieldValues>> }>;

export const conversationFields = extensionPoint<ConversationFields>('conversations: fields of the conversation answer');

/** A conversation as answers show it: its own fields and those the other capabilities add. */
export type ConversationAnswer = ConversationRecord & FieldValues;

/**
 * The conversation's answer as composed from its own fields and every capability's additions: the schemas, the
 * columns the row's statements select (ConversationRows), and the batch reads that follow them.
 */
export class ConversationAnswers implements ConversationRows {
  /** Typed as the conversation's own fields: what others add is known at run time only (ConversationAnswer). */
  readonly schema: typeof conversationRecordSchema;
  readonly withPartsSchema;
  readonly partWithConversationSchema;
  private readonly bySql: readonly SqlFields[];
  private readonly byRead: readonly ReadFields[];
  /** the empty values of the fields read by batch (those by SQL come with the row) */
  private readonly readNone: FieldValues;

  constructor(private readonly fields: readonly ConversationFields[]) {
    const added = Object.assign({}, ...fields.map((f) => f.schema)) as Record<string, Loose>;
    this.schema = extend(conversationRecordSchema, added, { title: 'Conversation' }) as unknown as typeof conversationRecordSchema;
    this.withPartsSchema = extend(this.schema, { parts: arrayOf(partSchema, { maxItems: INLINE_PARTS }) }, { title: 'ConversationWithParts' });
    this.partWithConversationSchema = extend(partSchema, { conversation: this.schema }, { title: 'ConversationPartWithConversation' });
    this.bySql = fields.filter((f): f is SqlFields => 'sql' in f);
    this.byRead = fields.filter((f): f is ReadFields => 'read' in f);
    this.readNone = Object.assign({}, ...this.byRead.map((f) => f.none)) as FieldValues;
  }

  static of(additions: Additions): ConversationAnswers {
    return new ConversationAnswers(additions.to(conversationFields));
  }

  /** The SQL-added fields as one column: a JSON array, an element per addition. */
  select(alias: string): string | null {
    return this.bySql.length ? `json_build_array(${this.bySql.map((f) => f.sql(alias)).join(', ')})` : null;
  }

  /** A row as answers show it: its own fields and those SQL added (their empty values when the row lacks them). */
  render(row: ConversationRow): ConversationRecord & FieldValues {
    const added = row.added ?? [];
    return Object.assign(renderConversation(row), ...this.bySql.map((f, i) => (i < added.length ? f.fromSql(added[i]) : f.none))) as ConversationRecord &
      FieldValues;
  }

  /**
   * The batch-read fields of conversations by id, every capability's read sent at once (on one connection they are
   * pipelined: one round trip). Ids are lower-cased as the rows hold them; no ids, no statement.
   */
  async read(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, FieldValues>> {
    const byId = new Map<string, FieldValues>();
    if (ids.length === 0 || this.byRead.length === 0) return byId;
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    const reads = await Promise.all(this.byRead.map((f) => f.read(db, tenantId, unique)));
    for (const read of reads)
      for (const [id, values] of read) {
        const into = byId.get(id);
        if (into) Object.assign(into, values);
        else byId.set(id, { ...values });
      }
    return byId;
  }

  /** A rendered conversation with its batch-read fields from `byId` (`none` for what a capability holds nothing of). */
  attach<T extends { id: string }>(c: T, byId: ReadonlyMap<string, FieldValues>): T & FieldValues {
    return { ...c, ...this.readNone, ...byId.get(c.id) };
  }

  /** One conversation as answers show it (the caller knows it exists: a command just changed it). */
  async one(db: Db, tenantId: string, id: string): Promise<ConversationRecord & FieldValues> {
    const row = await findRenderedConversation(db, tenantId, id, this);
    if (!row) throw new Error(`conversation ${id} of ${tenantId} is not there to answer with`);
    return (await this.complete(db, tenantId, [this.render(row)]))[0]!;
  }

  /** Rendered conversations with their batch-read fields, read in one batch. */
  async complete<T extends { id: string }>(db: Db, tenantId: string, conversations: readonly T[]): Promise<(T & FieldValues)[]> {
    const byId = await this.read(
      db,
      tenantId,
      conversations.map((c) => c.id),
    );
    return conversations.map((c) => this.attach(c, byId));
  }

  /** The added fields as of a past seq (see ConversationFields.past). */
  past(events: readonly StoredEvent[]): FieldValues {
    return Object.assign({}, ...this.fields.map((f) => f.none), ...this.fields.map((f) => f.past?.(events) ?? {})) as FieldValues;
  }
}
