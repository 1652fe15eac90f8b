import type { Projector } from '../../projections/projector.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import type { ContactEvent } from '../contacts/index.js';
import type { TagEvent } from '../tags/index.js';
import type { TeamEvent } from '../teams/index.js';
import type { ConversationEvent } from './conversations.events.js';
import { tableSpec, type TableBatch } from '../../projections/table-batch.js';

export const CONVERSATIONS = tableSpec({
  table: 'conversations',
  key: ['tenant_id', 'id'],
  nullable: ['assignee_id', 'external_id', 'merged_into', 'snoozed_until', 'subject', 'team_id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    channel_id: 'uuid',
    contact_id: 'uuid',
    external_id: 'text',
    subject: 'text',
    state: 'text',
    snoozed_until: 'timestamptz',
    assignee_id: 'uuid',
    team_id: 'text',
    tag_ids: 'uuid[]',
    priority: 'text',
    custom_attributes: 'jsonb',
    parts_count: 'int',
    contact_erased: 'boolean',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
    last_part_at: 'timestamptz',
    merged_into: 'uuid',
  },
} as const);
/** Erased bridge threads, by keyed hash (conversations.read.ts threadKey): a post to one files nothing. */
export const TOMBSTONES = tableSpec({
  table: 'conversation_thread_tombstones',
  key: ['tenant_id', 'thread_key'],
  columns: { tenant_id: 'uuid', thread_key: 'text', erased_at: 'timestamptz' },
} as const);
export const PARTS = tableSpec({
  table: 'conversation_parts',
  key: ['tenant_id', 'id'],
  nullable: ['body', 'external_id', 'redacted'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    conversation_id: 'uuid',
    seq: 'bigint',
    part_type: 'text',
    body: 'text',
    author_type: 'text',
    author_id: 'text',
    external_id: 'text',
    attachments: 'jsonb',
    details: 'jsonb',
    redacted: 'text',
    created_at: 'timestamptz',
  },
} as const);

/** Per team, the member its assignment rule last assigned to: round robin's cursor (routing.ts), folded from routing's assignment parts. */
export const ROUTING = tableSpec({
  table: 'conversation_routing',
  key: ['tenant_id', 'team_id'],
  columns: {
    tenant_id: 'uuid',
    team_id: 'text',
    last_assignee_id: 'uuid',
    updated_at: 'timestamptz',
  },
} as const);

/** Keys of a part's payload that change the conversation (the decider puts the resulting state there). */
const STATE_KEYS = ['state', 'snoozed_until', 'assignee_id', 'team_id', 'priority'] as const;

/**
 * A rating of the conversation (csat's event): the rating is csat's to keep and to add to the answer
 * (answer-fields.ts); the conversation records only that it changed. Its shape, not csat's type: conversations
 * imports none of the capabilities that add to it.
 */
type Rated = { type: 'conversation.rated'; aggregate_type: 'conversation'; aggregate_id: string; payload: { conversation_id: string } };

type Handled =
  | ConversationEvent
  | Rated
  | Extract<ContactEvent, { type: 'contact.erased' | 'contact.merged' }>
  | Extract<TeamEvent, { type: 'team.deleted' }>
  | Extract<TagEvent, { type: 'tag.deleted' }>;

/** A part whose content is gone: how a redaction, an unsend or an erasure leaves it. */
const gone = (how: 'redacted' | 'unsent' | 'erased') => ({ body: null, attachments: [], redacted: how });

type Tables = Record<'conversations' | 'parts' | 'routing' | 'tombstones', TableBatch>;
type EventOf<T extends Handled['type']> = StoredEvent<Extract<Handled, { type: T }>>;

/** A new conversation's row. */
function createdRow(e: EventOf<'conversation.created'>) {
  const p = e.payload;
  return {
    tenant_id: e.tenant_id,
    id: p.conversation_id,
    channel_id: p.channel_id,
    contact_id: p.contact_id,
    external_id: p.external_id ?? null,
    subject: p.subject ?? null,
    state: p.state,
    snoozed_until: null,
    assignee_id: p.assignee_id ?? null,
    team_id: p.team_id ?? null,
    tag_ids: [],
    priority: p.priority ?? 'normal',
    custom_attributes: {},
    parts_count: 0,
    contact_erased: false,
    created_at: e.created_at,
    updated_at: e.created_at,
    last_part_at: e.created_at,
    merged_into: null,
  };
}

/** A part: its row, the state it leaves the conversation in, and routing's cursor when a rule assigned it. */
function projectPart(e: EventOf<'conversation_part.created'>, { conversations, parts, routing }: Pick<Tables, 'conversations' | 'parts' | 'routing'>): void {
  const { conversation_id, part_id, part_type, channel_id: _c, author, body, external_id, attachments, upload_ids: _u, ...details } = e.payload;
  parts.insert({
    tenant_id: e.tenant_id,
    id: part_id,
    conversation_id,
    seq: e.seq,
    part_type,
    body: body ?? null,
    author_type: author.type,
    author_id: author.id,
    external_id: external_id ?? null,
    attachments: attachments ?? [],
    details,
    created_at: e.created_at,
  });
  const changes: Record<string, unknown> = {};
  for (const k of STATE_KEYS) if (k in e.payload) changes[k] = e.payload[k];
  conversations.patch(
    { tenant_id: e.tenant_id, id: conversation_id },
    { ...changes, updated_at: e.created_at, last_part_at: e.created_at },
    { parts_count: 1 },
  );
  const by = e.payload.assigned_by;
  if (by && e.payload.assignee_id)
    routing.insert({ tenant_id: e.tenant_id, team_id: by.team_id, last_assignee_id: e.payload.assignee_id, updated_at: e.created_at });
}

/** A contact's erasure: what its conversations and parts keep, and the tombstones of its threads. */
function projectErasure(e: EventOf<'contact.erased'>, { conversations, parts, tombstones }: Pick<Tables, 'conversations' | 'parts' | 'tombstones'>): void {
  for (const id of e.payload.conversation_ids)
    conversations.patch({ tenant_id: e.tenant_id, id }, { subject: null, external_id: null, custom_attributes: {}, contact_erased: true });
  // The thread ids are gone with the contact; their keyed hashes stay, so a post to one is known for what it is.
  for (const key of e.payload.thread_keys ?? []) tombstones.insert({ tenant_id: e.tenant_id, thread_key: key, erased_at: e.created_at });
  for (const id of e.payload.part_ids) parts.patch({ tenant_id: e.tenant_id, id }, gone('erased'));
}

export const conversationsProjector: Projector<Handled> = {
  name: 'conversations',
  handles: [
    'conversation.created',
    'conversation_part.created',
    'conversation_part.redacted',
    'conversation_part.unsent',
    'conversation.tagged',
    'conversation.untagged',
    'conversation.attributes_updated',
    'conversation.merged',
    'conversation.rated',
    'contact.erased',
    'contact.merged',
    'team.deleted',
    'tag.deleted',
  ],
  tables: ['conversation_parts', 'conversations', 'conversation_routing', 'conversation_thread_tombstones'],
  project(events, writes) {
    const conversations = writes.table(CONVERSATIONS);
    const tombstones = writes.table(TOMBSTONES);
    const parts = writes.table(PARTS);
    const routing = writes.table(ROUTING);
    for (const e of events) {
      switch (e.type) {
        case 'conversation.created':
          conversations.insert(createdRow(e));
          break;
        case 'conversation_part.created':
          projectPart(e, { conversations, parts, routing });
          break;
        case 'conversation_part.redacted':
          parts.patch({ tenant_id: e.tenant_id, id: e.payload.part_id }, gone('redacted'));
          break;
        case 'conversation_part.unsent':
          parts.patch({ tenant_id: e.tenant_id, id: e.payload.part_id }, gone('unsent'));
          break;
        case 'contact.erased':
          projectErasure(e, { conversations, parts, tombstones });
          break;
        // The merged contact's conversations are the survivor's now.
        case 'contact.merged':
          for (const id of e.payload.conversation_ids) conversations.patch({ tenant_id: e.tenant_id, id }, { contact_id: e.payload.contact_id });
          break;
        // Tags are deltas on the stored set: a projector never needs the current tags to fold them.
        case 'conversation.tagged':
          conversations.addTo({ tenant_id: e.tenant_id, id: e.payload.conversation_id }, 'tag_ids', [e.payload.tag_id]);
          conversations.patch({ tenant_id: e.tenant_id, id: e.payload.conversation_id }, { updated_at: e.created_at });
          break;
        case 'conversation.untagged':
          conversations.removeFrom({ tenant_id: e.tenant_id, id: e.payload.conversation_id }, 'tag_ids', [e.payload.tag_id]);
          conversations.patch({ tenant_id: e.tenant_id, id: e.payload.conversation_id }, { updated_at: e.created_at });
          break;
        // The whole resulting set: null once the conversation's key is gone (its contact erased), read as none.
        case 'conversation.attributes_updated':
          conversations.patch(
            { tenant_id: e.tenant_id, id: e.payload.conversation_id },
            { custom_attributes: e.payload.custom_attributes ?? {}, updated_at: e.created_at },
          );
          break;
        // Closed by the part before it; from now on its thread's messages are filed in `into` (conversations.read.ts).
        case 'conversation.merged':
          conversations.patch({ tenant_id: e.tenant_id, id: e.payload.conversation_id }, { merged_into: e.payload.into, updated_at: e.created_at });
          break;
        case 'conversation.rated':
          conversations.patch({ tenant_id: e.tenant_id, id: e.payload.conversation_id }, { updated_at: e.created_at });
          break;
        case 'tag.deleted':
          // The event names the conversations that carried the tag (see tags.decider.ts).
          for (const id of e.payload.conversation_ids) conversations.removeFrom({ tenant_id: e.tenant_id, id }, 'tag_ids', [e.payload.id]);
          break;
        case 'team.deleted':
          // The event names the conversations it unassigns (see teams.decider.ts for why it is one event, not a part per conversation).
          for (const id of e.payload.conversation_ids) conversations.patch({ tenant_id: e.tenant_id, id }, { team_id: null, updated_at: e.created_at });
          routing.delete({ tenant_id: e.tenant_id, team_id: e.payload.id });
          break;
        default: {
          const never: never = e;
          throw new Error(`conversations projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
