// What other capabilities add to a conversation's answer. Conversations renders
// a conversation from its own row; a capability that keeps something about
// conversations in its own tables (sla: `sla` and `statistics`; csat: `rating`)
// adds its fields through the `conversationFields` extension point, in its own
// module, with one batch read per page or group of answers: never one per
// conversation. So conversations imports none of them, and the next such
// feature edits one folder.
import type { Db } from '../../commands/command.js';
import { arrayOf, extend, type Loose } from '../../api/schemas.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import { extensionPoint, type Additions } from '../additions.js';
import { conversationRecordSchema, INLINE_PARTS, partSchema, type ConversationRecord } from './conversations.read.js';

export type FieldValues = Record<string, unknown>;

/** Fields a capability adds to every conversation answer. */
export interface ConversationFields {
  /** the fields' schemas, by name, in the order the answer lists them */
  schema: Record<string, Loose>;
  /** the values of a conversation this capability holds nothing for */
  none: FieldValues;
  /** the values of a workspace's conversations by id (lower case), in one read; ids it holds nothing for are left out */
  read(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, FieldValues>>;
  /**
   * The values as of a past seq, from the conversation's own events up to it (and its contact's erasure, when it
   * happened by then), oldest first. Absent: not kept for the past, `none` (the schema says so).
   */
  past?(events: readonly StoredEvent[]): FieldValues;
}

export const conversationFields = extensionPoint<ConversationFields>('conversations: fields of the conversation answer');

/** A conversation as answers show it: its own fields and those the other capabilities add. */
export type ConversationAnswer = ConversationRecord & FieldValues;

/** The conversation's answer as composed from its own fields and every capability's additions. */
export class ConversationAnswers {
  /** Typed as the conversation's own fields: what others add is known at run time only (ConversationAnswer). */
  readonly schema: typeof conversationRecordSchema;
  readonly withPartsSchema;
  readonly partWithConversationSchema;
  private readonly none: FieldValues;

  constructor(private readonly fields: readonly ConversationFields[]) {
    const added = Object.assign({}, ...fields.map((f) => f.schema)) as Record<string, Loose>;
    this.schema = extend(conversationRecordSchema, added, { title: 'Conversation' }) as unknown as typeof conversationRecordSchema;
    this.withPartsSchema = extend(this.schema, { parts: arrayOf(partSchema, { maxItems: INLINE_PARTS }) }, { title: 'ConversationWithParts' });
    this.partWithConversationSchema = extend(partSchema, { conversation: this.schema }, { title: 'ConversationPartWithConversation' });
    this.none = Object.assign({}, ...fields.map((f) => f.none)) as FieldValues;
  }

  static of(additions: Additions): ConversationAnswers {
    return new ConversationAnswers(additions.to(conversationFields));
  }

  /**
   * The added fields of conversations by id, every capability's read sent at once (on one connection they are
   * pipelined: one round trip). Ids are lower-cased as the rows hold them; no ids, no statement.
   */
  async read(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, FieldValues>> {
    const byId = new Map<string, FieldValues>();
    if (ids.length === 0 || this.fields.length === 0) return byId;
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    const reads = await Promise.all(this.fields.map((f) => f.read(db, tenantId, unique)));
    for (const read of reads)
      for (const [id, values] of read) {
        const into = byId.get(id);
        if (into) Object.assign(into, values);
        else byId.set(id, { ...values });
      }
    return byId;
  }

  /** A rendered conversation with its added fields from `byId` (`none` for what a capability holds nothing of). */
  attach<T extends { id: string }>(c: T, byId: ReadonlyMap<string, FieldValues>): T & FieldValues {
    return { ...c, ...this.none, ...byId.get(c.id) };
  }

  /** Rendered conversations with their added fields, read in one batch. */
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
    return Object.assign({}, this.none, ...this.fields.map((f) => f.past?.(events) ?? {})) as FieldValues;
  }
}
