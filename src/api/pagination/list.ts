// The one list mechanism for every list route: parameters (spec 4.1), keyset
// queries over (sort key, id), and the list envelope (spec 2.7). Never OFFSET.
import type { Knex } from 'knex';
import { invalidCursor, decodeCursor, encodeCursor, isCursorNumber, isCursorText, isCursorTimestamp, type Cursor } from './cursor.js';
import type { Schema } from '../validation.js';
import { isUuid } from '../../platform/ids.js';

export interface SortKey {
  /** column holding the sort key; the table's `id` column breaks ties */
  column: string;
  kind: 'timestamp' | 'number' | 'text';
}

export interface ListSpec {
  /** `type` of each element, e.g. "conversation" */
  itemType: string;
  sorts: Record<string, SortKey>;
  defaultSort: string;
  defaultOrder: 'asc' | 'desc';
  /** the id column (qualified if the query joins) */
  idColumn?: string;
  /** ids are UUIDs in every table here; a cursor carrying anything else is refused before the query */
  idIsUuid?: boolean;
}

/** A list sorted only by when its items were created (the common case): `order` its default direction. */
export const byCreatedAt = (itemType: string, order: ListSpec['defaultOrder'], extra: Pick<ListSpec, 'idIsUuid'> = {}): ListSpec => ({
  itemType,
  sorts: { created_at: { column: 'created_at', kind: 'timestamp' } },
  defaultSort: 'created_at',
  defaultOrder: order,
  ...extra,
});

export interface ListParams {
  per_page: number;
  sort: string;
  order: 'asc' | 'desc';
  starting_after?: string;
}

export interface ListEnvelope<T> {
  type: 'list';
  data: T[];
  pages: { type: 'pages'; per_page: number; next: { starting_after: string } | null };
}

/** Query-string schema for a list route: pagination plus the route's own filters. */
export function listQuerySchema(spec: ListSpec, filters: Record<string, Schema> = {}): Schema {
  return {
    additionalProperties: false,
    properties: {
      per_page: { type: 'integer', minimum: 1, maximum: 150, default: 20 },
      starting_after: { type: 'string', minLength: 1, maxLength: 2048 },
      sort: { type: 'string', enum: Object.keys(spec.sorts), default: spec.defaultSort },
      order: { type: 'string', enum: ['asc', 'desc'], default: spec.defaultOrder },
      // `workspace` names a session caller's workspace (spec 5.4) and may ride along on any route.
      workspace: { type: 'string', maxLength: 200 },
      ...filters,
    },
  };
}

/** Validates the cursor against sort and order. Runs before any query. */
export function parseCursor(spec: ListSpec, p: ListParams): Cursor | null {
  if (!p.starting_after) return null;
  const c = decodeCursor(p.starting_after, p.sort, p.order);
  const key = spec.sorts[p.sort]!;
  // Every value that reaches the keyset query is one its cast and column accept.
  const keyOk = key.kind === 'number' ? isCursorNumber(c.key) : key.kind === 'timestamp' ? isCursorTimestamp(c.key) : isCursorText(c.key);
  if (!keyOk) throw invalidCursor('its sort key is malformed');
  if (spec.idIsUuid !== false ? !isUuid(c.id) : !isCursorText(c.id)) throw invalidCursor('its id is malformed');
  return c;
}

/** Adds the keyset condition, order and limit (one extra row tells whether a next page exists). */
export function applyKeyset<T extends {}>(qb: Knex.QueryBuilder<T>, spec: ListSpec, p: ListParams, cursor: Cursor | null): Knex.QueryBuilder<T> {
  const key = spec.sorts[p.sort]!;
  const idCol = spec.idColumn ?? 'id';
  const op = p.order === 'asc' ? '>' : '<';
  if (cursor) {
    const cast = key.kind === 'timestamp' ? '::timestamptz' : key.kind === 'number' ? '::bigint' : '::text';
    qb.whereRaw(`(??, ??) ${op} (?${cast}, ?${spec.idIsUuid === false ? '::text' : '::uuid'})`, [key.column, idCol, cursor.key, cursor.id]);
  }
  return qb
    .orderBy([
      { column: key.column, order: p.order },
      { column: idCol, order: p.order },
    ])
    .limit(p.per_page + 1);
}

/** A row's value of a (possibly qualified) column. */
const valueOf = (row: unknown, column: string): unknown => (row as Record<string, unknown>)[column.slice(column.lastIndexOf('.') + 1)];

/** The cursor key of a row under the list's sort, read from the column the spec names. */
export function sortKeyOf(spec: ListSpec, sort: string, row: unknown): string | number {
  const key = spec.sorts[sort]!;
  const v = valueOf(row, key.column);
  if (key.kind === 'timestamp') return isoKey(v as Date | string);
  if (key.kind === 'number') return Number(v);
  return String(v);
}

/** Builds the envelope from the rows fetched by applyKeyset. */
export function toPage<R, T>(spec: ListSpec, p: ListParams, rows: R[], render: (row: R) => T): ListEnvelope<T> {
  const more = rows.length > p.per_page;
  const pageRows = more ? rows.slice(0, p.per_page) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    type: 'list',
    data: pageRows.map(render),
    pages: {
      type: 'pages',
      per_page: p.per_page,
      next:
        more && last
          ? {
              starting_after: encodeCursor({
                sort: p.sort,
                order: p.order,
                key: sortKeyOf(spec, p.sort, last),
                id: String(valueOf(last, spec.idColumn ?? 'id')),
              }),
            }
          : null,
    },
  };
}

/** Sort key of a timestamp column as it round-trips through a cursor (microseconds kept by Postgres text). */
export const isoKey = (d: Date | string): string => (d instanceof Date ? d.toISOString() : d);
