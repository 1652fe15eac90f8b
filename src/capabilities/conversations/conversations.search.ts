// The searchable fields of conversations (POST /api/conversations/search, the
// custom views built on it, and the counts): declared here because this
// capability owns the tables they read. The language itself (checking,
// compiling, paths in errors) is src/platform/query/filter.ts.
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import { checkQuery, columnField, compile, uuidSetField, type CheckedNode, type FieldDef, type FilterLanguage, type Sql } from '../../platform/query/filter.js';

/** The text-search configuration of part bodies; migration 024's index is built with the same one. */
export const BODY_TS_CONFIG = 'simple';

const ids = ['=', '!=', 'IN', 'NIN'] as const;
const instants = ['=', '!=', '<', '<=', '>', '>='] as const;

/**
 * Words in the body of any part (message, reply or note): Postgres full-text
 * search (websearch syntax: `refund "credit card" -paypal`) over the GIN index
 * of migration 024. A redacted, unsent or erased part's body is null and
 * matches nothing.
 */
const body: FieldDef = {
  name: 'body',
  kind: 'fulltext',
  operators: ['~'],
  description: 'Words in the body of any of its parts (full-text search, websearch syntax).',
  sql: (_op, value) => ({
    sql:
      'EXISTS (SELECT 1 FROM conversation_parts p WHERE p.tenant_id = conversations.tenant_id AND p.conversation_id = conversations.id' +
      ` AND to_tsvector('${BODY_TS_CONFIG}'::regconfig, p.body) @@ websearch_to_tsquery('${BODY_TS_CONFIG}'::regconfig, ?::text))`,
    bindings: [value],
  }),
};

export const conversationSearch: FilterLanguage = {
  name: 'conversations',
  fields: [
    columnField({ name: 'state', column: 'conversations.state', kind: 'enum', values: ['open', 'closed', 'snoozed'], operators: ids, cast: 'text' }),
    columnField({ name: 'assignee_id', column: 'conversations.assignee_id', kind: 'uuid', operators: ids, nullable: true, cast: 'uuid', description: 'null: unassigned' }),
    columnField({ name: 'team_id', column: 'conversations.team_id', kind: 'uuid', operators: ids, nullable: true, cast: 'text', description: 'null: no team' }),
    columnField({ name: 'channel_id', column: 'conversations.channel_id', kind: 'uuid', operators: ids, cast: 'uuid' }),
    columnField({ name: 'contact_id', column: 'conversations.contact_id', kind: 'uuid', operators: ids, cast: 'uuid' }),
    uuidSetField({ name: 'tag_ids', column: 'conversations.tag_ids', description: '= has the tag, IN has any of them; null: untagged' }),
    columnField({ name: 'created_at', column: 'conversations.created_at', kind: 'instant', operators: instants, cast: 'timestamptz' }),
    columnField({ name: 'updated_at', column: 'conversations.updated_at', kind: 'instant', operators: instants, cast: 'timestamptz' }),
    columnField({ name: 'snoozed_until', column: 'conversations.snoozed_until', kind: 'instant', operators: instants, nullable: true, cast: 'timestamptz' }),
    columnField({ name: 'subject', column: 'conversations.subject', kind: 'text', operators: [...ids, '~', '^', '$'], nullable: true, cast: 'text' }),
    body,
  ],
};

/** A checked conversations query, or 400 invalid_query naming the path. */
export const checkConversationQuery = (raw: unknown, path = 'query'): CheckedNode => checkQuery(conversationSearch, raw, path);

/** The SQL of a conversations query (checked first). */
export const conversationWhere = (raw: unknown, path = 'query'): Sql => compile(checkConversationQuery(raw, path));

/**
 * Built-in views: queries in the same language (`assigned_to_me` names the
 * calling member; an API key calls as the member who minted it). They are
 * listed by GET /api/conversations?view_id=<id> and counted by /counts.
 */
export const BUILTIN_VIEWS: readonly { id: string; name: string; query: (memberId: string) => unknown }[] = [
  { id: 'open', name: 'Open', query: () => ({ field: 'state', operator: '=', value: 'open' }) },
  {
    id: 'unassigned',
    name: 'Unassigned',
    query: () => ({
      operator: 'AND',
      value: [
        { field: 'state', operator: '=', value: 'open' },
        { field: 'assignee_id', operator: '=', value: null },
        { field: 'team_id', operator: '=', value: null },
      ],
    }),
  },
  {
    id: 'assigned_to_me',
    name: 'Assigned to me',
    query: (me) => ({ operator: 'AND', value: [{ field: 'state', operator: '=', value: 'open' }, { field: 'assignee_id', operator: '=', value: me }] }),
  },
  { id: 'snoozed', name: 'Snoozed', query: () => ({ field: 'state', operator: '=', value: 'snoozed' }) },
  { id: 'closed', name: 'Closed', query: () => ({ field: 'state', operator: '=', value: 'closed' }) },
  { id: 'all', name: 'All', query: () => ({ field: 'state', operator: 'IN', value: ['open', 'closed', 'snoozed'] }) },
];

export const BUILTIN_VIEW_IDS = BUILTIN_VIEWS.map((v) => v.id);

/** A custom view as the views capability hands it over: its id, name and stored (valid) query. */
export interface CustomView {
  id: string;
  name: string;
  query: unknown;
}

/**
 * What conversations needs of the views capability, handed in by
 * src/capabilities/index.ts: views imports conversations (for this language),
 * so conversations may not import views back (dependency-cruiser forbids the cycle).
 */
export interface ViewLookups {
  /** the custom views the member can see: the workspace's and their own private ones */
  visibleViews(db: Db, tenantId: string, memberId: string): Promise<CustomView[]>;
  /** one of those, or null when it is unknown or another member's private view */
  findVisibleView(db: Db, tenantId: string, memberId: string, id: string): Promise<CustomView | null>;
}

/** The filter of a view id, built-in or custom; null when the caller cannot see it. */
export async function viewFilter(db: Db, lookups: ViewLookups, tenantId: string, memberId: string, id: string): Promise<Sql | null> {
  const builtin = BUILTIN_VIEWS.find((v) => v.id === id);
  if (builtin) return conversationWhere(builtin.query(memberId));
  const custom = await lookups.findVisibleView(db, tenantId, memberId, id);
  return custom ? conversationWhere(custom.query) : null;
}

export interface CountedView {
  type: 'view_count';
  id: string;
  name: string;
  kind: 'builtin' | 'custom';
  count: number;
}

/**
 * Every built-in view's count and every visible custom view's, in ONE
 * statement (one scan, a FILTERed count per view), with the projection
 * checkpoint read in the same statement: `as_of_seq` is the last event the
 * read model held in the snapshot the counts were taken from (projections
 * commit with the events they fold, so the two cannot disagree).
 */
export async function viewCounts(db: Knex, tenantId: string, memberId: string, custom: CustomView[]): Promise<{ as_of_seq: number; data: CountedView[] }> {
  const views = [
    ...BUILTIN_VIEWS.map((v) => ({ id: v.id, name: v.name, kind: 'builtin' as const, where: conversationWhere(v.query(memberId)) })),
    ...custom.map((v) => ({ id: v.id, name: v.name, kind: 'custom' as const, where: conversationWhere(v.query) })),
  ];
  const cols = views.map((v, i) => `count(*) FILTER (WHERE ${v.where.sql}) AS c${i}`).join(', ');
  const sql = `SELECT (SELECT COALESCE(max(last_seq), 0) FROM projection_checkpoints WHERE tenant_id = ?) AS as_of_seq, ${cols} FROM conversations WHERE conversations.tenant_id = ?`;
  const row = (await db.raw(sql, [tenantId, ...views.flatMap((v) => v.where.bindings), tenantId] as Knex.RawBinding[])).rows[0] as Record<string, string | number>;
  return {
    as_of_seq: Number(row.as_of_seq),
    data: views.map((v, i) => ({ type: 'view_count', id: v.id, name: v.name, kind: v.kind, count: Number(row[`c${i}`] ?? 0) })),
  };
}
