// One filter language for every searchable list (conversations, contacts, the
// views built on conversations). A query is a tree: a condition (leaf)
// `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [...]}`,
// at most MAX_DEPTH groups deep with at most MAX_CONDITIONS entries per group.
//
// The owner of a table declares its searchable fields (name, value kind,
// operators, and how a condition becomes SQL); this module checks a raw tree
// against those declarations, naming the offending path
// (`query.value.1.operator`), and compiles a checked tree to one
// parameterised SQL fragment. Values only ever travel as bindings: the SQL
// text comes from the declarations, never from the request.
import { ValidationFailed, type ErrorEntry } from '../errors.js';

export const OPERATORS = ['=', '!=', 'IN', 'NIN', '<', '<=', '>', '>=', '~', '^', '$'] as const;
export type Operator = (typeof OPERATORS)[number];
export const GROUP_OPERATORS = ['AND', 'OR'] as const;
export type GroupOperator = (typeof GROUP_OPERATORS)[number];

/** Groups nest at most this deep (a root group of groups of conditions). */
export const MAX_DEPTH = 2;
/** Entries per group. */
export const MAX_CONDITIONS = 15;
/** Values of an IN / NIN list. */
export const MAX_LIST = 100;
/** Longest string value. */
export const MAX_TEXT = 1000;
/** Errors reported for one query (the rest are left out). */
const MAX_ERRORS = 20;

export const QUERY_ERROR = 'invalid_query';

/** A piece of SQL with `?` placeholders and their values (knex raw). */
export interface Sql {
  sql: string;
  bindings: unknown[];
}

/**
 * Runs one statement (knex raw): what a field may use to look something up
 * before it builds its SQL. The service hands its owner pool (outside
 * row-level security, where Postgres uses indexes whose operators are not
 * leakproof, such as full-text `@@`): a lookup names its tenant itself.
 */
export interface Lookup {
  raw(sql: string, bindings: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * What a condition is compiled for. `list`: a page of rows in sort order (a
 * LIMIT the planner walks an index for); `count`: every row of the tenant is
 * visited (the counts). A field may choose a different (equivalent) SQL shape
 * for each; `lookup`, when given, lets it probe first (see the body field).
 */
export interface SqlContext {
  tenantId: string;
  purpose: 'list' | 'count';
  lookup?: Lookup;
  /**
   * A lookup made for counts records here the projection checkpoint (seq) it
   * read with its answer: the caller compares it with the seq its own
   * statement read, to know both saw the same log position.
   */
  observedSeqs?: number[];
}

/**
 * What a field's values are:
 * - `uuid`: an id (compared lower-cased);
 * - `enum`: one of `values`;
 * - `text`: a string (contains / starts / ends match case-insensitively);
 * - `instant`: an ISO 8601 instant with a time and an offset (`2026-01-31T09:00:00Z`), not a calendar day;
 * - `boolean`;
 * - `fulltext`: words to find (`~` only), matched by the database's full-text search;
 * - `scalar`: a string, a finite number or a boolean (custom attributes).
 */
export type ValueKind = 'uuid' | 'enum' | 'text' | 'instant' | 'boolean' | 'fulltext' | 'scalar';

export type Scalar = string | number | boolean;
/** A checked value: a scalar, null (only with = and != on a nullable field), or a list (IN, NIN). */
export type Value = Scalar | null | Scalar[];

export interface FieldDef {
  /** the name a query uses; a dynamic field's prefix ends with a dot (`custom_attributes.`) */
  name: string;
  kind: ValueKind;
  operators: readonly Operator[];
  /** `= null` / `!= null` are allowed (absent, unassigned, never snoozed) */
  nullable?: boolean;
  /** the allowed values of an `enum` field */
  values?: readonly string[];
  /** a dynamic field: the part after the prefix, checked by this pattern (a custom attribute's key) */
  key?: RegExp;
  /** one line for the docs */
  description?: string;
  /** the SQL of a checked condition: `value` fits the kind and operator; `key` is a dynamic field's key */
  sql(op: Operator, value: Value, key: string, ctx: SqlContext): Sql | Promise<Sql>;
}

export interface FilterLanguage {
  /** names the thing searched in messages ("conversations") */
  name: string;
  fields: readonly FieldDef[];
}

export type CheckedNode =
  { kind: 'leaf'; field: FieldDef; key: string; operator: Operator; value: Value } | { kind: 'group'; operator: GroupOperator; children: CheckedNode[] };

// A NUL, or an unpaired UTF-16 surrogate: text Postgres cannot hold.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// An instant: a calendar date, a time of day and an offset (Z or ±hh:mm).
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-](\d{2}):(\d{2}))$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value as an error message names it: a string quoted (its first 40 characters), anything else by kind. */
const show = (v: unknown): string =>
  typeof v === 'string'
    ? JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)
    : Array.isArray(v)
      ? 'a list'
      : v === null
        ? 'null'
        : typeof v === 'object'
          ? 'an object'
          : String(v);

/** True for an ISO 8601 instant Postgres reads as timestamptz exactly as written (years 1–9999, a real day and time). */
export function isInstant(s: string): boolean {
  const m = INSTANT.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (year < 1 || hour > 23 || minute > 59 || second > 59) return false;
  if (m[9] !== undefined && (Number(m[9]) > 14 || Number(m[10]) > 59)) return false;
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

class Problems {
  readonly list: ErrorEntry[] = [];
  add(field: string, message: string): void {
    if (this.list.length < MAX_ERRORS) this.list.push({ code: QUERY_ERROR, message: `${field}: ${message}`, field });
  }
}

/**
 * The most `-` a full-text value may hold before a word. Postgres's websearch_to_tsquery pushes a NOT for each `-`
 * (whatever spaces or punctuation sit between them) until a word comes, on a stack of 32 operators, and fails past
 * it ("tsquery stack too small": XX000, which would make a search answer 500 and a stored view or SLA policy fail
 * every time it runs). Counting the `-` since the last ASCII letter or digit (a word in every locale) keeps well
 * inside that stack, with room for the AND or OR waiting beside them; test/search/fulltext.int.test.ts holds the rule
 * against websearch_to_tsquery itself.
 */
export const MAX_FULLTEXT_NOTS = 16;

/** Why Postgres's full-text parser would fail on this value, or null. */
export function fulltextProblem(v: string): string | null {
  let run = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0x2d) {
      if (++run > MAX_FULLTEXT_NOTS) return `has more than ${MAX_FULLTEXT_NOTS} \`-\` (NOT) before a word: the full-text search cannot parse it.`;
    } else if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) run = 0;
  }
  return null;
}

/** The error (if any) of one scalar of a field, for an operator. */
function scalarProblem(f: FieldDef, op: Operator, v: unknown): string | null {
  const textOp = op === '~' || op === '^' || op === '$';
  if (typeof v === 'string') {
    if (UNSTORABLE.test(v)) return 'contains a NUL or an unpaired surrogate.';
    if (v.length > MAX_TEXT) return `is longer than ${MAX_TEXT} characters.`;
    if (textOp && v.length === 0) return 'must not be empty.';
  }
  switch (f.kind) {
    case 'uuid':
      return typeof v === 'string' && UUID.test(v) ? null : `must be an id (a UUID), not ${show(v)}.`;
    case 'enum':
      return typeof v === 'string' && f.values!.includes(v) ? null : `must be one of ${f.values!.join(', ')}, not ${show(v)}.`;
    case 'text':
      return typeof v === 'string' ? null : `must be a string, not ${show(v)}.`;
    case 'fulltext':
      return typeof v === 'string' ? fulltextProblem(v) : `must be a string, not ${show(v)}.`;
    case 'instant':
      return typeof v === 'string' && isInstant(v)
        ? null
        : `must be an ISO 8601 instant with a time and an offset (e.g. 2026-01-31T09:00:00Z), not ${show(v)}.`;
    case 'boolean':
      return typeof v === 'boolean' ? null : `must be true or false, not ${show(v)}.`;
    case 'scalar':
      if (textOp) return typeof v === 'string' ? null : `must be a string for ${op}, not ${show(v)}.`;
      if (op === '<' || op === '<=' || op === '>' || op === '>=') {
        return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? null : `must be a number or a string for ${op}, not ${show(v)}.`;
      }
      return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))
        ? null
        : `must be a string, a number or a boolean, not ${show(v)}.`;
  }
}

const normal = (f: FieldDef, v: Scalar): Scalar => (f.kind === 'uuid' ? (v as string).toLowerCase() : v);

function checkValue(f: FieldDef, op: Operator, raw: unknown, path: string, problems: Problems): Value | undefined {
  if (op === 'IN' || op === 'NIN') {
    if (!Array.isArray(raw)) return (problems.add(path, `${op} takes a list of values, not ${show(raw)}.`), undefined);
    if (raw.length < 1 || raw.length > MAX_LIST) return (problems.add(path, `${op} takes 1 to ${MAX_LIST} values (got ${raw.length}).`), undefined);
    let ok = true;
    raw.forEach((v, i) => {
      const p = scalarProblem(f, op, v);
      if (p) ((ok = false), problems.add(`${path}.${i}`, p));
    });
    return ok ? (raw as Scalar[]).map((v) => normal(f, v)) : undefined;
  }
  if (raw === null) {
    if ((op === '=' || op === '!=') && f.nullable) return null;
    return (problems.add(path, f.nullable ? `null works only with = and !=.` : `${f.name} is never null; null is not a value here.`), undefined);
  }
  const p = scalarProblem(f, op, raw);
  if (p) return (problems.add(path, p), undefined);
  return normal(f, raw as Scalar);
}

function findField(lang: FilterLanguage, name: string): { field: FieldDef; key: string } | { error: string } {
  const exact = lang.fields.find((f) => !f.key && f.name === name);
  if (exact) return { field: exact, key: '' };
  const dynamic = lang.fields.find((f) => f.key && name.startsWith(f.name));
  if (dynamic) {
    const key = name.slice(dynamic.name.length);
    return dynamic.key!.test(key) ? { field: dynamic, key } : { error: `${show(key)} is not a valid key after ${dynamic.name}.` };
  }
  const names = lang.fields.map((f) => (f.key ? `${f.name}<key>` : f.name)).join(', ');
  return { error: `${show(name)} is not a field of ${lang.name}; fields: ${names}.` };
}

function checkNode(lang: FilterLanguage, raw: unknown, path: string, depth: number, problems: Problems): CheckedNode | undefined {
  if (!isObject(raw))
    return (problems.add(path, `must be a condition {field, operator, value} or a group {operator: "AND"|"OR", value: [...]}, not ${show(raw)}.`), undefined);
  const isLeaf = 'field' in raw;
  const allowed = isLeaf ? ['field', 'operator', 'value'] : ['operator', 'value'];
  for (const k of Object.keys(raw)) if (!allowed.includes(k)) problems.add(`${path}.${k}`, `is not part of a ${isLeaf ? 'condition' : 'group'}.`);
  if (!('value' in raw)) problems.add(`${path}.value`, 'is required.');
  if (!isLeaf) {
    const op = raw.operator;
    if (typeof op !== 'string' || !(GROUP_OPERATORS as readonly string[]).includes(op)) {
      problems.add(`${path}.operator`, `a group's operator is AND or OR (a condition needs a field), not ${show(op)}.`);
      return undefined;
    }
    if (depth >= MAX_DEPTH) return (problems.add(path, `groups nest at most ${MAX_DEPTH} levels deep.`), undefined);
    if (!('value' in raw)) return undefined;
    const value = raw.value;
    if (!Array.isArray(value)) return (problems.add(`${path}.value`, `a group's value is a list of conditions and groups, not ${show(value)}.`), undefined);
    if (value.length < 1 || value.length > MAX_CONDITIONS)
      return (problems.add(`${path}.value`, `a group holds 1 to ${MAX_CONDITIONS} entries (got ${value.length}).`), undefined);
    const children = value.map((v, i) => checkNode(lang, v, `${path}.value.${i}`, depth + 1, problems));
    return children.every((c) => c !== undefined) ? { kind: 'group', operator: op as GroupOperator, children: children as CheckedNode[] } : undefined;
  }
  if (typeof raw.field !== 'string') return (problems.add(`${path}.field`, `must be a field name, not ${show(raw.field)}.`), undefined);
  const found = findField(lang, raw.field);
  if ('error' in found) return (problems.add(`${path}.field`, found.error), undefined);
  const { field, key } = found;
  const op = raw.operator;
  if (typeof op !== 'string' || !(OPERATORS as readonly string[]).includes(op)) {
    return (problems.add(`${path}.operator`, `must be one of ${OPERATORS.join(' ')}, not ${show(op)}.`), undefined);
  }
  if (!field.operators.includes(op as Operator)) {
    return (problems.add(`${path}.operator`, `${raw.field} takes ${field.operators.join(' ')}, not ${op}.`), undefined);
  }
  if (!('value' in raw)) return undefined;
  const value = checkValue(field, op as Operator, raw.value, `${path}.value`, problems);
  return value === undefined ? undefined : { kind: 'leaf', field, key, operator: op as Operator, value };
}

/**
 * Checks a raw query tree against a language. Throws 400 `invalid_query`
 * with one entry per problem, each naming its path under `path`
 * (`query.value.1.operator`). Runs before any SQL.
 */
export function checkQuery(lang: FilterLanguage, raw: unknown, path = 'query'): CheckedNode {
  const problems = new Problems();
  const node = checkNode(lang, raw, path, 0, problems);
  if (problems.list.length || !node)
    throw new ValidationFailed(problems.list.length ? problems.list : [{ code: QUERY_ERROR, message: `${path} is invalid.`, field: path }]);
  return node;
}

/** The SQL of a checked tree: one parenthesised boolean expression whose values are all bindings. */
export async function compile(node: CheckedNode, ctx: SqlContext): Promise<Sql> {
  if (node.kind === 'leaf') {
    const s = await node.field.sql(node.operator, node.value, node.key, ctx);
    return { sql: `(${s.sql})`, bindings: s.bindings };
  }
  const parts: Sql[] = [];
  for (const child of node.children) parts.push(await compile(child, ctx));
  return { sql: `(${parts.map((p) => p.sql).join(` ${node.operator} `)})`, bindings: parts.flatMap((p) => p.bindings) };
}

/** Checks then compiles. */
export const compileQuery = async (lang: FilterLanguage, raw: unknown, ctx: SqlContext, path = 'query'): Promise<Sql> =>
  compile(checkQuery(lang, raw, path), ctx);

/** Escapes LIKE's wildcards (% _ and the escape character \) in a value. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The ILIKE pattern of a text operator: contains, starts with, ends with. */
export function likePattern(op: Operator, v: string): string {
  const e = escapeLike(v);
  return op === '~' ? `%${e}%` : op === '^' ? `${e}%` : `%${e}`;
}

export interface ColumnOptions {
  name: string;
  /** the SQL expression of the column (a constant of the declaring module, never request input) */
  column: string;
  kind: Exclude<ValueKind, 'fulltext' | 'scalar'>;
  operators: readonly Operator[];
  nullable?: boolean;
  values?: readonly string[];
  /** the SQL type values are cast to (`uuid`, `timestamptz`, `text`, `boolean`) */
  cast: string;
  /** compare = / != / IN / NIN ignoring case (e-mail addresses) */
  caseless?: boolean;
  description?: string;
}

/**
 * A field that is one column: = and != (null: IS NULL / IS NOT NULL; != keeps
 * rows where the column is null, as "not assigned to X" includes the
 * unassigned), IN and NIN, the orderings, and contains / starts / ends with as
 * ILIKE with escaped wildcards.
 */
export function columnField(o: ColumnOptions): FieldDef {
  const c = o.column;
  const lhs = o.caseless ? `lower(${c})` : c;
  const rhs = o.caseless ? `lower(?::${o.cast})` : `?::${o.cast}`;
  return {
    name: o.name,
    kind: o.kind,
    operators: o.operators,
    nullable: o.nullable,
    values: o.values,
    description: o.description,
    sql(op, value) {
      switch (op) {
        case '=':
          return value === null ? { sql: `${c} IS NULL`, bindings: [] } : { sql: `${lhs} = ${rhs}`, bindings: [value] };
        case '!=':
          return value === null ? { sql: `${c} IS NOT NULL`, bindings: [] } : { sql: `${lhs} IS DISTINCT FROM ${rhs}`, bindings: [value] };
        case 'IN':
        case 'NIN': {
          const list = o.caseless ? (value as string[]).map((v) => v.toLowerCase()) : value;
          const any = `${lhs} = ANY(?::${o.cast}[])`;
          if (op === 'IN') return { sql: any, bindings: [list] };
          return { sql: o.nullable ? `${c} IS NULL OR NOT (${any})` : `NOT (${any})`, bindings: [list] };
        }
        case '<':
        case '<=':
        case '>':
        case '>=':
          return { sql: `${c} ${op} ?::${o.cast}`, bindings: [value] };
        case '~':
        case '^':
        case '$':
          return { sql: `${c} ILIKE ? ESCAPE '\\'`, bindings: [likePattern(op, value as string)] };
      }
    },
  };
}

/**
 * A uuid[] column (tags): `=` has the tag, `!=` has not, IN has any of them,
 * NIN has none of them; `= null` has no tags at all, `!= null` has some.
 */
export function uuidSetField(o: { name: string; column: string; description?: string }): FieldDef {
  const c = o.column;
  return {
    name: o.name,
    kind: 'uuid',
    operators: ['=', '!=', 'IN', 'NIN'],
    nullable: true,
    description: o.description,
    sql(op, value) {
      if (value === null) return { sql: op === '=' ? `cardinality(${c}) = 0` : `cardinality(${c}) > 0`, bindings: [] };
      const list = Array.isArray(value) ? value : [value];
      switch (op) {
        case '=':
          return { sql: `${c} @> ?::uuid[]`, bindings: [list] };
        case '!=':
          return { sql: `NOT (${c} @> ?::uuid[])`, bindings: [list] };
        case 'IN':
          return { sql: `${c} && ?::uuid[]`, bindings: [list] };
        default:
          return { sql: `NOT (${c} && ?::uuid[])`, bindings: [list] };
      }
    },
  };
}

/**
 * `custom_attributes.<key>` over a jsonb column of scalars (contacts' and conversations' custom attributes): a
 * scalar. = / != / IN / NIN compare the JSON value exactly (`"1"` is not `1`; `= null`: the key is absent or has
 * no value); the orderings compare numbers with numbers and strings with strings (a value of another type never
 * matches; dates, YYYY-MM-DD, order as strings); ~ ^ $ match string values ignoring case. `key`: the keys a query
 * may name (the pattern is anchored and linear).
 */
export function customAttributesField(o: { column: string; key: RegExp; description: string }): FieldDef {
  const attr = `${o.column} -> ?::text`;
  return {
    name: 'custom_attributes.',
    kind: 'scalar',
    operators: ['=', '!=', 'IN', 'NIN', '<', '<=', '>', '>=', '~', '^', '$'],
    nullable: true,
    key: o.key,
    description: o.description,
    sql(op, value, key): Sql {
      switch (op) {
        case '=':
        case '!=':
          if (value === null) return { sql: `${attr} IS ${op === '=' ? '' : 'NOT '}NULL`, bindings: [key] };
          return { sql: `${attr} IS ${op === '=' ? 'NOT ' : ''}DISTINCT FROM ?::jsonb`, bindings: [key, JSON.stringify(value)] };
        case 'IN':
        case 'NIN': {
          const any = `${attr} IN (SELECT jsonb_array_elements(?::jsonb))`;
          return { sql: op === 'IN' ? `COALESCE(${any}, false)` : `NOT COALESCE(${any}, false)`, bindings: [key, JSON.stringify(value)] };
        }
        case '<':
        case '<=':
        case '>':
        case '>=':
          return {
            sql: `jsonb_typeof(${attr}) = ?::text AND ${attr} ${op} ?::jsonb`,
            bindings: [key, typeof value === 'number' ? 'number' : 'string', key, JSON.stringify(value)],
          };
        default:
          return {
            sql: `jsonb_typeof(${attr}) = 'string' AND ${o.column} ->> ?::text ILIKE ? ESCAPE '\\'`,
            bindings: [key, key, likePattern(op, value as string)],
          };
      }
    },
  };
}
