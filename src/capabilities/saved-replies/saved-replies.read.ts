import type { Db } from '../../commands/command.js';
import { arrayOf, constant, dateTime, object, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { NameHolder, SavedReplyView } from './saved-replies.decider.js';
import { MAX_SAVED_REPLIES } from './saved-replies.decider.js';
import type { SAVED_REPLIES } from './saved-replies.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `saved_replies` (RowOf: its spec's columns, NULL where the table takes it). */
export type SavedReplyRow = RowOf<typeof SAVED_REPLIES>;

export const savedRepliesOf = (db: Db, tenantId: string) => db('saved_replies').where({ tenant_id: tenantId });

export async function findSavedReply(db: Db, tenantId: string, id: string): Promise<SavedReplyRow | undefined> {
  return isUuid(id) ? savedRepliesOf(db, tenantId).andWhere({ id }).first() : undefined;
}

/** Every saved reply of the workspace (at most 150), by name ignoring case. */
export async function allSavedReplies(db: Db, tenantId: string): Promise<SavedReplyRow[]> {
  return savedRepliesOf(db, tenantId).orderByRaw('lower(name), name, id').limit(MAX_SAVED_REPLIES);
}

export async function countSavedReplies(db: Db, tenantId: string): Promise<number> {
  const row = (await savedRepliesOf(db, tenantId).count<{ n: string }[]>({ n: '*' }))[0];
  return Number(row?.n ?? 0);
}

/** The saved reply holding this name, compared case-insensitively. */
export async function nameHolder(db: Db, tenantId: string, name: string): Promise<NameHolder> {
  const row = await savedRepliesOf(db, tenantId).andWhereRaw('lower(name) = lower(?)', [name]).first('id');
  return row ? { id: row.id } : null;
}

export const savedReplyView = (r: SavedReplyRow | undefined): SavedReplyView | null => (r ? { id: r.id, name: r.name, body: r.body } : null);

export const renderSavedReply = (r: SavedReplyRow): SavedReply => ({
  type: 'saved_reply',
  id: r.id,
  name: r.name,
  body: r.body,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export const savedReplySchema = object(
  {
    type: constant('saved_reply'),
    id: uuid,
    name: str(),
    body: str({ description: 'With its placeholders unrendered.' }),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'SavedReply' },
);
export type SavedReply = Static<typeof savedReplySchema>;

export const savedReplyListSchema = object(
  { type: constant('list'), data: arrayOf(savedReplySchema, { maxItems: MAX_SAVED_REPLIES }) },
  { title: 'SavedReplyList', description: 'Every saved reply of the workspace (at most 150), by name: unpaginated, so no `pages`.' },
);
export type SavedReplyList = Static<typeof savedReplyListSchema>;

export const deletedSavedReplySchema = object({ type: constant('saved_reply'), id: uuid, deleted: constant(true) }, { title: 'DeletedSavedReply' });
export type DeletedSavedReply = Static<typeof deletedSavedReplySchema>;

export const renderedReplySchema = object(
  {
    type: constant('rendered_reply'),
    body: str({ description: 'The body with every placeholder replaced by its value, its fallback, or "" when it has neither.' }),
    undefined_variables: arrayOf(str(), {
      description: 'Placeholders (e.g. `contact.email`) that had no value and no fallback, each once, in order of first use.',
    }),
  },
  { title: 'RenderedReply' },
);
export type RenderedReply = Static<typeof renderedReplySchema>;
