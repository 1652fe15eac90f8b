// The searchable fields of conversations (POST /api/conversations/search, the
// custom views built on it, and the counts): declared here because this
// capability owns the tables they read. The language itself (checking,
// compiling, paths in errors) is src/platform/query/filter.ts.
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import {
  checkQuery,
  columnField,
  compile,
  customAttributesField,
  uuidSetField,
  type CheckedNode,
  type FieldDef,
  type FilterLanguage,
  type Lookup,
  type Sql,
  type SqlContext,
} from '../../platform/query/filter.js';
import { PRIORITIES } from './conversations.events.js';
import { AppError } from '../../platform/errors.js';
import { extensionPoint } from '../additions.js';

/** The text-search configuration of part bodies; migration 024's index is built with the same one. */
export const BODY_TS_CONFIG = 'simple';

const ids = ['=', '!=', 'IN', 'NIN'] as const;
const instants = ['=', '!=', '<', '<=', '>', '>='] as const;

/** A probe of the parts index finding fewer matching parts than this lists their conversations by id. */
export const BODY_PROBE_LIMIT = 2000;
/** A term the planner's statistics put in at least this share of all parts is common: its page walks without a probe. */
export const COMMON_TERM_SHARE = 0.02;

const tsquery = `websearch_to_tsquery('${BODY_TS_CONFIG}'::regconfig, ?::text)`;

/** The seq of the last event a workspace's read models hold (their projection checkpoint), as a scalar subquery of its tenant id. */
const CHECKPOINT = 'SELECT COALESCE(max(last_seq), 0) FROM projection_checkpoints WHERE tenant_id = ?::uuid';

const planRows = async (lookup: Lookup, words: string): Promise<number> => {
  const plan = await lookup.raw(`EXPLAIN (FORMAT JSON) SELECT 1 FROM conversation_parts p WHERE p.body_tsv @@ ${tsquery}`, [words]);
  return Number((plan.rows[0]?.['QUERY PLAN'] as { Plan?: { 'Plan Rows'?: number } }[] | undefined)?.[0]?.Plan?.['Plan Rows'] ?? 0);
};

/** A word no part holds: the planner's estimate for it is its guess for any word its statistics do not list. */
const UNLISTED_WORD = 'qqzzxxunlistedword';
let statistics: { at: number; unlisted: number; all: number } | null = null;

/**
 * Whether the planner's statistics know `words` as common: an estimate above
 * its guess for an unlisted word, and at least COMMON_TERM_SHARE of all parts.
 * (A word outside the statistics' most common elements gets a fixed guess,
 * which in a corpus without a long tail can itself look common.) The guess and
 * the table's size are kept for a minute.
 */
async function commonTerm(lookup: Lookup, words: string, now = Date.now()): Promise<boolean> {
  if (!statistics || now - statistics.at > 60_000) {
    const all = await lookup.raw(`SELECT reltuples FROM pg_class WHERE oid = 'conversation_parts'::regclass`, []);
    statistics = { at: now, unlisted: await planRows(lookup, UNLISTED_WORD), all: Number(all.rows[0]?.reltuples ?? -1) };
  }
  if (statistics.all <= 0) return false;
  const matching = await planRows(lookup, words);
  return matching > statistics.unlisted && matching >= BODY_PROBE_LIMIT && matching / statistics.all >= COMMON_TERM_SHARE;
}

/** Forgets the kept statistics (tests). */
export const forgetTermStatistics = () => {
  statistics = null;
};

/**
 * Words in the body of any part (message, reply or note): Postgres full-text
 * search (websearch syntax: `refund "credit card" -paypal`) over the stored
 * vector `conversation_parts.body_tsv` and its GIN index (migration 024). A
 * redacted, unsent or erased part's body is null, so is its vector: no match.
 *
 * `@@` is not leakproof, so behind row-level security Postgres filters the
 * workspace's parts one by one instead of using the GIN index. The index is
 * therefore read by a probe through `ctx.lookup` (the owner pool, outside
 * row-level security: the probe names its tenant), and the statement itself,
 * behind row-level security, gets the probe's answer:
 * - counts (every conversation is visited): the ids of the conversations
 *   whose parts match, `id = ANY(...)` (without a lookup, `id IN (...)`);
 * - a page of a common term (see commonTerm: the planner's statistics list
 *   it, at least COMMON_TERM_SHARE of all parts): `EXISTS` per conversation,
 *   walked in sort order (a primary-key lookup of its parts, the stored
 *   vector checked); matches are dense, so a page is found within the first
 *   rows;
 * - a page of any other term: a probe for at most BODY_PROBE_LIMIT parts;
 *   fewer, and the page lists those conversations by id (`id = ANY(...)`);
 *   more, and it walks as above. (Left to itself the planner walks for a rare
 *   term too, since it cannot know how rare: a walk that visits every
 *   conversation of the workspace.)
 */
const body: FieldDef = {
  name: 'body',
  kind: 'fulltext',
  operators: ['~'],
  description: 'Words in the body of any of its parts (full-text search, websearch syntax).',
  async sql(_op, value, _key, ctx) {
    const walk = {
      sql: `EXISTS (SELECT 1 FROM conversation_parts p WHERE p.tenant_id = conversations.tenant_id AND p.conversation_id = conversations.id AND p.body_tsv @@ ${tsquery})`,
      bindings: [value],
    };
    const byIds = (rows: Record<string, unknown>[]) => ({
      sql: 'conversations.id = ANY(?::uuid[])',
      bindings: [[...new Set(rows.map((r) => r.conversation_id as string))]],
    });
    if (ctx.purpose === 'count') {
      if (ctx.lookup) {
        // the matching conversations and the checkpoint they are as of, in one statement (one snapshot)
        const r = await ctx.lookup.raw(
          `SELECT (${CHECKPOINT}) AS seq, ARRAY(SELECT DISTINCT p.conversation_id FROM conversation_parts p WHERE p.tenant_id = ?::uuid AND p.body_tsv @@ ${tsquery})::text[] AS ids`,
          [ctx.tenantId, ctx.tenantId, value],
        );
        ctx.observedSeqs?.push(Number(r.rows[0]?.seq ?? 0));
        return { sql: 'conversations.id = ANY(?::uuid[])', bindings: [(r.rows[0]?.ids as string[] | undefined) ?? []] };
      }
      return {
        sql: `conversations.id IN (SELECT p.conversation_id FROM conversation_parts p WHERE p.tenant_id = ?::uuid AND p.body_tsv @@ ${tsquery})`,
        bindings: [ctx.tenantId, value],
      };
    }
    if (!ctx.lookup) return walk;
    if (await commonTerm(ctx.lookup, value as string)) return walk;
    const probe = await ctx.lookup.raw(`SELECT p.conversation_id FROM conversation_parts p WHERE p.tenant_id = ?::uuid AND p.body_tsv @@ ${tsquery} LIMIT ?`, [
      ctx.tenantId,
      value,
      BODY_PROBE_LIMIT,
    ]);
    return probe.rows.length < BODY_PROBE_LIMIT ? byIds(probe.rows) : walk;
  },
};

/** `custom_attributes.<name>`: a value of a conversation attribute (see conversation-attributes); a name no definition has matches nothing. */
const customAttribute = customAttributesField({
  column: 'conversations.custom_attributes',
  key: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
  description: 'A custom attribute value by name (string, number or boolean; a date is a YYYY-MM-DD string); null: no value.',
});

export const conversationSearch: FilterLanguage = {
  name: 'conversations',
  fields: [
    columnField({ name: 'state', column: 'conversations.state', kind: 'enum', values: ['open', 'closed', 'snoozed'], operators: ids, cast: 'text' }),
    columnField({
      name: 'assignee_id',
      column: 'conversations.assignee_id',
      kind: 'uuid',
      operators: ids,
      nullable: true,
      cast: 'uuid',
      description: 'null: unassigned',
    }),
    columnField({ name: 'team_id', column: 'conversations.team_id', kind: 'uuid', operators: ids, nullable: true, cast: 'text', description: 'null: no team' }),
    columnField({ name: 'channel_id', column: 'conversations.channel_id', kind: 'uuid', operators: ids, cast: 'uuid' }),
    columnField({ name: 'contact_id', column: 'conversations.contact_id', kind: 'uuid', operators: ids, cast: 'uuid' }),
    uuidSetField({ name: 'tag_ids', column: 'conversations.tag_ids', description: '= has the tag, IN has any of them; null: untagged' }),
    columnField({ name: 'priority', column: 'conversations.priority', kind: 'enum', values: PRIORITIES, operators: ids, cast: 'text' }),
    columnField({ name: 'created_at', column: 'conversations.created_at', kind: 'instant', operators: instants, cast: 'timestamptz' }),
    columnField({ name: 'updated_at', column: 'conversations.updated_at', kind: 'instant', operators: instants, cast: 'timestamptz' }),
    columnField({ name: 'snoozed_until', column: 'conversations.snoozed_until', kind: 'instant', operators: instants, nullable: true, cast: 'timestamptz' }),
    columnField({ name: 'subject', column: 'conversations.subject', kind: 'text', operators: [...ids, '~', '^', '$'], nullable: true, cast: 'text' }),
    body,
    customAttribute,
  ],
};

/** A checked conversations query, or 400 invalid_query naming the path. */
export const checkConversationQuery = (raw: unknown, path = 'query'): CheckedNode => checkQuery(conversationSearch, raw, path);

/** The SQL of a conversations query (checked first). */
export const conversationWhere = async (raw: unknown, ctx: SqlContext, path = 'query'): Promise<Sql> => compile(checkConversationQuery(raw, path), ctx);

/** A stored query that no longer checks matches nothing; any other failure (the database) is not hidden. */
const unchecked = (e: unknown): Sql => {
  if (e instanceof AppError) return { sql: 'false', bindings: [] };
  throw e;
};

/**
 * Whether one conversation matches each of `queries` (stored trees: an SLA
 * policy's `match.query`), in one statement; a tree that no longer checks (one
 * stored before a check it fails existed) matches nothing and is reported to
 * `skipped` with its index, so one bad tree never stops the others. Answers one
 * boolean per query, all false when there is no such conversation.
 */
export async function conversationMatches(
  db: Db,
  tenantId: string,
  conversationId: string,
  queries: readonly unknown[],
  skipped?: (index: number, error: unknown) => void,
): Promise<boolean[]> {
  if (queries.length === 0) return [];
  const ctx: SqlContext = { tenantId, purpose: 'list' };
  const wheres: Sql[] = [];
  for (const [i, q] of queries.entries()) {
    try {
      wheres.push(await conversationWhere(q, ctx));
    } catch (e) {
      wheres.push(unchecked(e));
      skipped?.(i, e);
    }
  }
  const cols = wheres.map((w, i) => `coalesce(${w.sql}, false) AS q${i}`).join(', ');
  const res = await db.raw(`SELECT ${cols} FROM conversations WHERE conversations.tenant_id = ? AND conversations.id = ?`, [
    ...wheres.flatMap((w) => w.bindings),
    tenantId,
    conversationId,
  ] as Knex.RawBinding[]);
  const row = res.rows[0] as Record<string, boolean> | undefined;
  return queries.map((_q, i) => row?.[`q${i}`] === true);
}

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
    query: (me) => ({
      operator: 'AND',
      value: [
        { field: 'state', operator: '=', value: 'open' },
        { field: 'assignee_id', operator: '=', value: me },
      ],
    }),
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
 * What conversations needs of the views capability, which adds it (the `conversationViews` extension point): views
 * imports conversations (for this language), so conversations may not import views back (dependency-cruiser forbids
 * the cycle).
 */
export interface ViewLookups {
  /** the custom views the member can see: the workspace's and their own private ones */
  visibleViews(db: Db, tenantId: string, memberId: string): Promise<CustomView[]>;
  /** how many of those there are (what the counts cost of the expensive rate limit) */
  countVisibleViews(db: Db, tenantId: string, memberId: string): Promise<number>;
  /** one of those, or null when it is unknown or another member's private view */
  findVisibleView(db: Db, tenantId: string, memberId: string, id: string): Promise<CustomView | null>;
}

export const conversationViews = extensionPoint<ViewLookups>('conversations: custom views');

/** Without the views capability: the built-in views only. */
export const NO_CUSTOM_VIEWS: ViewLookups = {
  visibleViews: async () => [],
  countVisibleViews: async () => 0,
  findVisibleView: async () => null,
};

/** The filter of a view id, built-in or custom; null when the caller cannot see it. */
export async function viewFilter(db: Knex, lookup: Lookup, lookups: ViewLookups, tenantId: string, memberId: string, id: string): Promise<Sql | null> {
  const ctx: SqlContext = { tenantId, purpose: 'list', lookup };
  const builtin = BUILTIN_VIEWS.find((v) => v.id === id);
  if (builtin) return conversationWhere(builtin.query(memberId), ctx);
  const custom = await lookups.findVisibleView(db, tenantId, memberId, id);
  return custom ? conversationWhere(custom.query, ctx) : null;
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
export async function viewCounts(
  db: Knex,
  lookup: Lookup | undefined,
  tenantId: string,
  memberId: string,
  custom: CustomView[],
): Promise<{ as_of_seq: number; data: CountedView[] }> {
  const all = [
    ...BUILTIN_VIEWS.map((v) => ({ id: v.id, name: v.name, kind: 'builtin' as const, query: v.query(memberId) })),
    ...custom.map((v) => ({ id: v.id, name: v.name, kind: 'custom' as const, query: v.query })),
  ];
  // A body condition's conversations come from an index probe made just before the statement (behind row-level
  // security the statement could not use the index); the probe reads the checkpoint with its answer. When a write
  // landed in between, the counts are taken again; after three tries, without probes (slower, one statement).
  for (let attempt = 0; ; attempt++) {
    const observedSeqs: number[] = [];
    const ctx: SqlContext = { tenantId, purpose: 'count', lookup: attempt < 3 ? lookup : undefined, observedSeqs };
    const views: { id: string; name: string; kind: 'builtin' | 'custom'; where: Sql }[] = [];
    // A custom view whose query no longer checks (stored before a check it fails existed) counts nothing, so it never
    // takes every member's counts down; listing it answers 400 invalid_query, which says why.
    for (const v of all) views.push({ ...v, where: await conversationWhere(v.query, ctx).catch(unchecked) });
    const cols = views.map((v, i) => `count(*) FILTER (WHERE ${v.where.sql}) AS c${i}`).join(', ');
    const sql = `SELECT (${CHECKPOINT}) AS as_of_seq, ${cols} FROM conversations WHERE conversations.tenant_id = ?`;
    const row = (await db.raw(sql, [tenantId, ...views.flatMap((v) => v.where.bindings), tenantId] as Knex.RawBinding[])).rows[0] as Record<
      string,
      string | number
    >;
    const asOf = Number(row.as_of_seq);
    if (observedSeqs.some((s) => s !== asOf) && attempt < 3) continue;
    return { as_of_seq: asOf, data: views.map((v, i) => ({ type: 'view_count', id: v.id, name: v.name, kind: v.kind, count: Number(row[`c${i}`] ?? 0) })) };
  }
}
