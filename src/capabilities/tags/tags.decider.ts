// Pure tag-catalog rules: names unique in the workspace ignoring case (as at
// Intercom and Chatwoot); at most MAX_TAGS, because GET /api/tags is
// unpaginated; a rename records only a change; a deletion names what carried
// the tag. The shell loads the state under the workspace's append lock, so two
// concurrent creates cannot take the same name.
import { Conflict, NotFound, Unprocessable } from '../../platform/errors.js';
import type { TagEvent } from './tags.events.js';

export const MAX_TAGS = 1000;

export interface TagView {
  id: string;
  name: string;
}

const taken = (name: string, holder: TagView) =>
  new Conflict('tag_exists', `A tag named "${name}" exists (names are unique in the workspace, ignoring case): ${holder.id}.`);

export function decideCreateTag(cmd: { id: string; name: string }, s: { count: number; sameName: TagView | null }): TagEvent[] {
  if (s.sameName) throw taken(cmd.name, s.sameName);
  if (s.count >= MAX_TAGS) throw new Unprocessable('limit_reached', `A workspace holds at most ${MAX_TAGS} tags; delete one first.`);
  return [{ type: 'tag.created', aggregate_type: 'tag', aggregate_id: cmd.id, payload: { id: cmd.id, name: cmd.name } }];
}

export function decideRenameTag(cmd: { id: string; name: string }, s: { tag: TagView | null; sameName: TagView | null }): TagEvent[] {
  if (!s.tag) throw new NotFound('tag');
  if (s.tag.name === cmd.name) return [];
  if (s.sameName && s.sameName.id !== s.tag.id) throw taken(cmd.name, s.sameName);
  return [{ type: 'tag.renamed', aggregate_type: 'tag', aggregate_id: s.tag.id, payload: { id: s.tag.id, name: cmd.name } }];
}

/**
 * One event naming every conversation and contact that carried the tag; their
 * projections drop it (as team.deleted does for team_id). Not an untag event
 * per conversation: a command appends at most 256 events and a tag may be on
 * far more, and tags would have to import conversations and contacts, which
 * import tags (for their existence check).
 */
export function decideDeleteTag(tag: TagView | null, s: { conversationIds: string[]; contactIds: string[] }): TagEvent[] {
  if (!tag) throw new NotFound('tag');
  return [
    {
      type: 'tag.deleted',
      aggregate_type: 'tag',
      aggregate_id: tag.id,
      payload: { id: tag.id, name: tag.name, conversation_ids: s.conversationIds, contact_ids: s.contactIds },
    },
  ];
}

/**
 * Whether tagging (add) or untagging changes a conversation's or contact's
 * tags: tagging twice, or untagging what isn't there, changes nothing and
 * appends nothing. A tag id the catalog doesn't hold is refused, except when
 * untagging it is a no-op anyway.
 */
export function taggingChanges(tagIds: readonly string[], tagId: string, tag: TagView | null, add: boolean): boolean {
  const has = tagIds.includes(tagId);
  if (!tag && (add || !has)) throw new NotFound('tag');
  return add ? !has : has;
}
