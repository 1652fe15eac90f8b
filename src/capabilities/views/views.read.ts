import type { Db } from '../../commands/command.js';
import { anyObject, arrayOf, constant, dateTime, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { CustomView } from '../conversations/index.js';
import { MAX_VISIBLE_VIEWS, type Order, type Sort, type ViewTally, type ViewView, type Visibility } from './views.decider.js';
import type { VIEWS } from './views.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `views` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type ViewRow = RowOf<typeof VIEWS> & {
  query: Record<string, unknown>;
  sort: Sort;
  sort_order: Order;
  visibility: Visibility;
};

export const viewsOf = (db: Db, tenantId: string) => db('views').where({ tenant_id: tenantId });

/**
 * SQL over a table of envelopes (the log, or the feed's copy of it) true for the events of private views, which the
 * change feed leaves out (`privateViewEvent` says the same of one event): view.created of a private view, and
 * view.updated and view.deleted marked private. Those appended before the mark existed carry none; they are left
 * out when their view was created private (a view published since loses its old updates from the feed, which
 * leaks nothing).
 */
export function privateViewEventsSql(table: 'events' | 'feed_events'): string {
  // Never null (a missing key reads as null in jsonb): NOT of it keeps every other event.
  return `COALESCE(${table}.type IN ('view.created', 'view.updated', 'view.deleted') AND (
      (${table}.type = 'view.created' AND ${table}.payload->>'visibility' = 'private')
      OR ${table}.payload->'private' = 'true'::jsonb
      OR (${table}.type <> 'view.created' AND ${table}.payload->'private' IS NULL AND EXISTS (
            SELECT 1 FROM ${table} created
             WHERE created.tenant_id = ${table}.tenant_id AND created.type = 'view.created'
               AND created.aggregate_id = ${table}.aggregate_id AND created.payload->>'visibility' = 'private'))), false)`;
}

/** The views a member sees: the workspace's and their own private ones. */
const visibleOf = (db: Db, tenantId: string, memberId: string) =>
  viewsOf(db, tenantId).andWhere((q) => q.where({ visibility: 'workspace' }).orWhere({ visibility: 'private', owner_member_id: memberId }));

export async function findView(db: Db, tenantId: string, id: string): Promise<ViewRow | undefined> {
  return isUuid(id) ? viewsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

/** Every view the member sees, workspace views first, then by name ignoring case. */
export async function visibleViewRows(db: Db, tenantId: string, memberId: string): Promise<ViewRow[]> {
  return visibleOf(db, tenantId, memberId).orderByRaw("visibility = 'private', lower(name), name, id").limit(MAX_VISIBLE_VIEWS);
}

export async function findVisibleViewRow(db: Db, tenantId: string, memberId: string, id: string): Promise<ViewRow | undefined> {
  return isUuid(id) ? visibleOf(db, tenantId, memberId).andWhere({ id }).first() : undefined;
}

/** What the quotas count: the workspace's workspace views and the member's private views, in one statement. */
export async function tallyViews(db: Db, tenantId: string, memberId: string): Promise<ViewTally> {
  const row: ViewTally | undefined = await viewsOf(db, tenantId).first(
    db.raw("count(*) FILTER (WHERE visibility = 'workspace')::int AS workspace"),
    db.raw("count(*) FILTER (WHERE visibility = 'private' AND owner_member_id = ?)::int AS private", [memberId]),
  );
  return { workspace: row?.workspace ?? 0, private: row?.private ?? 0 };
}

/** How many views the member sees (the counts cost one unit of the expensive rate limit per view). */
export async function countVisibleViews(db: Db, tenantId: string, memberId: string): Promise<number> {
  const row: { n: number } | undefined = await visibleOf(db, tenantId, memberId).first(db.raw('count(*)::int AS n'));
  // The counts count no more than the list holds.
  return Math.min(row?.n ?? 0, MAX_VISIBLE_VIEWS);
}

/** What conversations' ?view_id= and counts need (handed to conversationsModule in src/capabilities/index.ts). */
export const viewLookups = {
  async visibleViews(db: Db, tenantId: string, memberId: string): Promise<CustomView[]> {
    return (await visibleViewRows(db, tenantId, memberId)).map((v) => ({ id: v.id, name: v.name, query: v.query }));
  },
  countVisibleViews,
  async findVisibleView(db: Db, tenantId: string, memberId: string, id: string): Promise<CustomView | null> {
    const v = await findVisibleViewRow(db, tenantId, memberId, id);
    return v ? { id: v.id, name: v.name, query: v.query } : null;
  },
};

export const viewView = (v: ViewRow | undefined): ViewView | null =>
  v ? { id: v.id, name: v.name, query: v.query, sort: v.sort, order: v.sort_order, visibility: v.visibility, ownerMemberId: v.owner_member_id } : null;

export const renderView = (v: ViewRow): View => ({
  type: 'view',
  id: v.id,
  name: v.name,
  query: v.query,
  sort: v.sort,
  order: v.sort_order,
  visibility: v.visibility,
  owner_member_id: v.visibility === 'private' ? v.owner_member_id : null,
  created_at: v.created_at.toISOString(),
  updated_at: v.updated_at.toISOString(),
});

export const viewSchema = object(
  {
    type: constant('view'),
    id: uuid,
    name: str(),
    query: anyObject({ description: 'The filter, in the conversations filter language.' }),
    sort: oneOfStrings(['created_at', 'updated_at']),
    order: oneOfStrings(['asc', 'desc']),
    visibility: oneOfStrings(['private', 'workspace']),
    owner_member_id: nullable(uuid, { description: 'The member a private view belongs to; null for a workspace view.' }),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'View' },
);
export type View = Static<typeof viewSchema>;

export const viewListSchema = object(
  { type: constant('list'), data: arrayOf(viewSchema, { maxItems: MAX_VISIBLE_VIEWS }) },
  { title: 'ViewList', description: 'Every view the caller can see (workspace views, then their private ones, by name): unpaginated, so no `pages`.' },
);
export type ViewList = Static<typeof viewListSchema>;

export const deletedViewSchema = object({ type: constant('view'), id: uuid, deleted: constant(true) }, { title: 'DeletedView' });
export type DeletedView = Static<typeof deletedViewSchema>;
