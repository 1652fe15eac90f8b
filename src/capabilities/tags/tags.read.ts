import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import { arrayOf, constant, dateTime, object, str, uuid, type Static } from '../../api/schemas.js';
import { MAX_TAGS, type TagView } from './tags.decider.js';
import type { TAGS } from './tags.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `tags` (RowOf: its spec's columns, NULL where the table takes it). */
export type TagRow = RowOf<typeof TAGS>;

export const renderTag = (t: TagRow): Tag => ({
  type: 'tag',
  id: t.id,
  name: t.name,
  created_at: t.created_at.toISOString(),
  updated_at: t.updated_at.toISOString(),
});

export const tagsOf = (db: Db, tenantId: string) => db('tags').where({ tenant_id: tenantId });

export async function findTag(db: Db, tenantId: string, id: string): Promise<TagRow | undefined> {
  return isUuid(id) ? tagsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

export async function findTagByName(db: Db, tenantId: string, name: string): Promise<TagRow | undefined> {
  return tagsOf(db, tenantId).andWhereRaw('lower(name) = lower(?)', [name]).first();
}

/** Every tag of the workspace (at most MAX_TAGS), by name ignoring case. */
export async function allTags(db: Db, tenantId: string): Promise<TagRow[]> {
  return tagsOf(db, tenantId).orderByRaw('lower(name), name, id').limit(MAX_TAGS);
}

export async function countTags(db: Db, tenantId: string): Promise<number> {
  return Number((await tagsOf(db, tenantId).count<{ n: string }[]>({ n: '*' }))[0]?.n ?? 0);
}

export const tagView = (t: TagRow | undefined): TagView | null => (t ? { id: t.id, name: t.name } : null);

/**
 * An SQL expression, for another capability's SELECT, giving the tags of the
 * row `alias` (its tenant_id and tag_ids uuid[] columns) as a JSON array of
 * {id, name} in name order. Names come from the catalog at read time, which
 * is why a rename is one event. Short-circuits rows without tags.
 */
export const tagRefsSql = (alias: string): string =>
  `CASE WHEN cardinality(${alias}.tag_ids) = 0 THEN '[]'::json ELSE COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY lower(t.name), t.id) ` +
  `FROM tags t WHERE t.tenant_id = ${alias}.tenant_id AND t.id = ANY(${alias}.tag_ids)), '[]'::json) END`;

export const tagRefSchema = object({ id: uuid, name: str() }, { title: 'TagRef' });
/** A tag as answers name it: what tagRefsSql builds in SQL (json_build_object), so typed here, not checked by the compiler. */
export type TagRef = Static<typeof tagRefSchema>;

export const tagSchema = object({ type: constant('tag'), id: uuid, name: str(), created_at: dateTime, updated_at: dateTime }, { title: 'Tag' });
export type Tag = Static<typeof tagSchema>;

export const tagListSchema = object(
  { type: constant('list'), data: arrayOf(tagSchema, { maxItems: MAX_TAGS }) },
  { title: 'TagList', description: `Every tag of the workspace (at most ${MAX_TAGS}), by name: unpaginated, so no \`pages\`.` },
);

export type TagList = Static<typeof tagListSchema>;

export const deletedTagSchema = object({ type: constant('tag'), id: uuid, deleted: constant(true) }, { title: 'DeletedTag' });
export type DeletedTag = Static<typeof deletedTagSchema>;

/**
 * What a tag's deletion untags: the conversations and the contacts carrying
 * it. Those capabilities' read functions, handed in by
 * src/capabilities/index.ts: conversations and contacts import tags (for
 * their tag checks and tag names), so tags may not import them back.
 */
export interface TagReferences {
  conversationIds(db: Db, tenantId: string, tagId: string): Promise<string[]>;
  contactIds(db: Db, tenantId: string, tagId: string): Promise<string[]>;
}
