// A conversation as it was right after event N (GET /api/conversations/{id}?as_of_seq=N), and its history
// (GET /api/conversations/{id}/history). The past state is the conversations projector's own fold of the
// conversation's events up to N, rendered as the present one is; personal fields (subject, part bodies) are
// opened where their keys still exist and null where erased since. Tag names are today's, as in every
// answer. Its contact's erasure is folded in from the contact's events when it happened by N (the
// conversation then reads as the present one does: no contact, its texts gone), so the state at the head
// equals the present. Other aggregates' events that change it (a team's or a tag's deletion) are not.
import type { Db } from '../../commands/command.js';
import { eventsUpTo, historyRoute } from '../../api/history.js';
import type { RouteDef } from '../../api/routes.js';
import { isUuid } from '../../platform/ids.js';
import { foldInMemory } from '../../projections/past-state.js';
import type { CoreDeps } from '../capability.js';
import { tagRefsSql, type TagRef } from '../tags/index.js';
import type { ConversationAnswers } from './answer-fields.js';
import { conversationsProjector } from './conversations.projection.js';
import { findConversation, INLINE_PARTS, renderConversation, renderPart, type PartRow, type StoredConversation } from './conversations.read.js';

/** Tags by id and current name, as tagRefsSql renders them for a stored row. */
async function tagRefs(db: Db, tenantId: string, tagIds: readonly string[]): Promise<TagRef[]> {
  if (tagIds.length === 0) return [];
  const res = await db.raw(`SELECT ${tagRefsSql('x')} AS tags FROM (SELECT ?::uuid AS tenant_id, ?::uuid[] AS tag_ids) x`, [tenantId, [...tagIds]]);
  return (res.rows[0] as { tags: TagRef[] }).tags;
}

/**
 * The conversation with its first parts as of seq `asOfSeq` (checked against the log by the caller); null before it
 * existed. The fields other capabilities add are theirs to give as of then (a rating folded from these same events),
 * or their empty values where they keep nothing of the past (`sla`, `statistics`: the schema says so).
 */
export async function pastConversation(deps: Pick<CoreDeps, 'db' | 'store'>, answers: ConversationAnswers, tenantId: string, id: string, asOfSeq: number) {
  if (!isUuid(id)) return null;
  const conversationId = id.toLowerCase();
  const own = await eventsUpTo(deps.store, tenantId, conversationId, asOfSeq);
  const contactId = ownContact(own);
  // contact.erased names every conversation of the contact it erased: the projector folds it here as it did live.
  const erasure = contactId
    ? (await eventsUpTo(deps.store, tenantId, contactId, asOfSeq)).filter(
        (e) => e.type === 'contact.erased' && (e.payload as { conversation_ids?: string[] }).conversation_ids?.includes(conversationId),
      )
    : [];
  const events = [...own, ...erasure].sort((a, b) => a.seq - b.seq);
  const rows = foldInMemory([conversationsProjector], events);
  const conversation = rows('conversations').find((r) => r.id === conversationId) as StoredConversation | undefined;
  if (!conversation) return null;
  const parts = (rows('conversation_parts') as unknown as (PartRow & { seq: number })[])
    .filter((p) => p.conversation_id === conversationId)
    .sort((a, b) => Number(a.seq) - Number(b.seq))
    .slice(0, INLINE_PARTS);
  return {
    ...renderConversation({ ...conversation, tags: await tagRefs(deps.db, tenantId, conversation.tag_ids) }),
    ...answers.past(events),
    parts: parts.map(renderPart),
  };
}

/** The contact the conversation was started with (its contact never changes), from its conversation.created event. */
function ownContact(events: readonly { type: string; payload: unknown }[]): string | null {
  const created = events.find((e) => e.type === 'conversation.created');
  const id = (created?.payload as { contact_id?: unknown } | undefined)?.contact_id;
  return typeof id === 'string' ? id : null;
}

export function conversationHistoryRoute(deps: CoreDeps): RouteDef {
  return historyRoute({
    path: '/conversations/:id/history',
    permission: 'conversations:read',
    summary: "A conversation's events, oldest first, each with its actor",
    what: 'conversation',
    store: deps.store,
    exists: async ({ principal, params }) => (await findConversation(deps.db, principal.tenantId, params.id)) !== undefined,
  });
}
