// Pure saved-reply rules: at most 150 per workspace; names unique in the
// workspace, compared case-insensitively (as at Intercom and Front); a body's
// placeholders must be known ones; an update records only what changes. The
// shell loads the state under the workspace's append lock, so two concurrent
// creates cannot both take the 150th place or the same name.
import { Conflict, NotFound, Unprocessable } from '../../platform/errors.js';
import type { SavedReplyEvent } from './saved-replies.events.js';
import { parseTemplate } from './saved-replies.template.js';

export const MAX_SAVED_REPLIES = 150;

export interface SavedReplyView {
  id: string;
  name: string;
  body: string;
}

/** Another saved reply holding the name (case-insensitively), if any. */
export type NameHolder = { id: string } | null;

const taken = (name: string, holder: { id: string }) =>
  new Conflict('saved_reply_exists', `A saved reply named "${name}" exists (names are unique in the workspace, ignoring case): ${holder.id}.`);

export function decideCreateSavedReply(cmd: { id: string; name: string; body: string }, s: { count: number; holder: NameHolder }): SavedReplyEvent[] {
  parseTemplate(cmd.body);
  if (s.count >= MAX_SAVED_REPLIES) throw new Unprocessable('limit_reached', `A workspace holds at most ${MAX_SAVED_REPLIES} saved replies; delete one first.`);
  if (s.holder) throw taken(cmd.name, s.holder);
  return [{ type: 'saved_reply.created', aggregate_type: 'saved_reply', aggregate_id: cmd.id, payload: { id: cmd.id, name: cmd.name, body: cmd.body } }];
}

export function decideUpdateSavedReply(
  cmd: { id: string; name?: string; body?: string },
  s: { reply: SavedReplyView | null; holder: NameHolder },
): SavedReplyEvent[] {
  const r = s.reply;
  if (!r) throw new NotFound('saved reply');
  const changed: { name?: string; body?: string } = {};
  if (cmd.name !== undefined && cmd.name !== r.name) {
    if (s.holder && s.holder.id !== r.id) throw taken(cmd.name, s.holder);
    changed.name = cmd.name;
  }
  if (cmd.body !== undefined && cmd.body !== r.body) {
    parseTemplate(cmd.body);
    changed.body = cmd.body;
  }
  return Object.keys(changed).length
    ? [{ type: 'saved_reply.updated', aggregate_type: 'saved_reply', aggregate_id: r.id, payload: { id: r.id, ...changed } }]
    : [];
}

export function decideDeleteSavedReply(cmd: { id: string }, r: SavedReplyView | null): SavedReplyEvent[] {
  if (!r) throw new NotFound('saved reply');
  return [{ type: 'saved_reply.deleted', aggregate_type: 'saved_reply', aggregate_id: r.id, payload: { id: r.id } }];
}
