// Routes as configuration for the two read shapes every resource has: a
// paginated list (spec 4.1, 2.7) and a get by id. A capability names its list
// spec, the filtered query and the renderer; cursor checks, the keyset, the
// sort key and the envelope come from here.
import type { Knex } from 'knex';
import { BadRequest, NotFound } from '../platform/errors.js';
import { checkQuery, compile, type FilterLanguage, type Lookup, type Sql } from '../platform/query/filter.js';
import { applyKeyset, listQuerySchema, parseCursor, toPage, type ListParams, type ListSpec } from './pagination/list.js';
import { route, type Call, type Permission, type Responses, type RouteDef } from './routes.js';
import { listOf } from './schemas.js';
import type { Schema } from './validation.js';

export interface ListRouteDef<R, F, P extends string = string> {
  path: P;
  permission: Permission;
  summary?: string;
  /** the schema of one rendered element (the answer is the list envelope of it) */
  item?: Schema;
  /** error statuses peculiar to the route (see RouteDef.responses) */
  responses?: Responses;
  /** its rate class, when it is not a plain read (see RouteDef.rateClass) */
  rateClass?: RouteDef['rateClass'];
  spec: ListSpec;
  /** the route's own query filters (JSON Schema per parameter) */
  filters?: Record<string, Schema>;
  /** narrows the schema built from spec and filters (e.g. the feed allows only ascending order) */
  schema?(s: Schema): Schema;
  /** runs after the cursor is checked and before the query: e.g. the parent must exist (404) */
  before?(call: Call<unknown, ListParams & F, P>): Promise<void>;
  /** the tenant's rows, filtered; the keyset, order and limit are added here */
  query(call: Call<unknown, ListParams & F, P>): Knex.QueryBuilder;
  render(row: R): unknown;
  /** a last pass over the page, with I/O (the feed opens sealed personal fields) */
  finish?(call: Call<unknown, ListParams & F, P>, page: unknown): Promise<unknown>;
}

export function listRoute<R, F = Record<string, never>, P extends string = string>(def: ListRouteDef<R, F, P>): RouteDef {
  const schema = listQuerySchema(def.spec, def.filters);
  return route<unknown, ListParams & F, P>({
    method: 'get',
    path: def.path,
    permission: def.permission,
    summary: def.summary,
    responses: def.item ? { 200: listOf(def.item), ...def.responses } : def.responses,
    ...(def.rateClass ? { rateClass: def.rateClass } : {}),
    query: def.schema ? def.schema(schema) : schema,
    async handle(call) {
      // The cursor is checked before anything touches the database (spec 4.1.3).
      const cursor = parseCursor(def.spec, call.query);
      await def.before?.(call);
      const rows = (await applyKeyset(def.query(call), def.spec, call.query, cursor)) as R[];
      const page = toPage(def.spec, call.query, rows, def.render);
      return { status: 200, body: def.finish ? await def.finish(call, page) : page };
    },
  });
}

export interface GetRouteDef<R, P extends string = string> {
  path: P;
  permission: Permission;
  summary?: string;
  /** the schema of the rendered resource */
  resource?: Schema;
  /** names the thing in the 404 ("conversation") */
  what: string;
  find(call: Call<any, any, P>): Promise<R | null | undefined>;
  render(row: R): unknown;
}

export function getRoute<R, P extends string = string>(def: GetRouteDef<R, P>): RouteDef {
  return route<any, any, P>({
    method: 'get',
    path: def.path,
    permission: def.permission,
    summary: def.summary,
    responses: def.resource ? { 200: def.resource } : undefined,
    async handle(call) {
      const row = await def.find(call);
      if (!row) throw new NotFound(def.what);
      return { status: 200, body: def.render(row) };
    },
  });
}

export interface SearchBody {
  query: unknown;
  sort?: string;
  order?: 'asc' | 'desc';
  per_page?: number;
  starting_after?: string;
}

export interface SearchRouteDef<R> {
  path: string;
  permission: Permission;
  summary?: string;
  item?: Schema;
  spec: ListSpec;
  /** the query tree's JSON Schema for the docs (the language checks it, naming paths) */
  querySchema: Schema;
  /** the filter language the tree is checked against (400 invalid_query naming the path) and compiled with */
  language: FilterLanguage;
  /** what a field may probe with before it builds its SQL (the pool) */
  lookup: Lookup;
  /** the tenant's rows with the compiled filter applied; the keyset, order and limit are added here */
  query(call: Call<SearchBody>, where: Sql): Knex.QueryBuilder;
  render(row: R): unknown;
  finish?(call: Call<SearchBody>, page: unknown): Promise<unknown>;
}

/**
 * POST …/search: the filter language in the body, the same keyset cursors,
 * sorts and list envelope as the GET list. The tree and the cursor are both
 * checked before any query runs. A search changes nothing and its answer may
 * hold personal data, so it refuses an Idempotency-Key (a stored answer would
 * outlive an erasure).
 */
export function searchRoute<R>(def: SearchRouteDef<R>): RouteDef {
  return route<SearchBody>({
    method: 'post',
    path: def.path,
    permission: def.permission,
    summary: def.summary,
    // A search may scan what no index narrows: it draws from the workspace's expensive budget too.
    rateClass: 'expensive',
    responses: def.item ? { 200: listOf(def.item) } : undefined,
    body: {
      additionalProperties: false,
      required: ['query'],
      properties: {
        query: def.querySchema,
        sort: { type: 'string', enum: Object.keys(def.spec.sorts) },
        order: { type: 'string', enum: ['asc', 'desc'] },
        per_page: { type: 'integer', minimum: 1, maximum: 150 },
        starting_after: { type: 'string', minLength: 1, maxLength: 2048 },
      },
    },
    async handle(call) {
      if (call.req.get('idempotency-key') !== undefined) {
        throw new BadRequest(
          'idempotency_key_not_allowed',
          'A search changes nothing and its answer may hold personal data: send it without Idempotency-Key.',
          'Idempotency-Key',
        );
      }
      const b = call.body;
      const params: ListParams = {
        per_page: b.per_page ?? 20,
        sort: b.sort ?? def.spec.defaultSort,
        order: b.order ?? def.spec.defaultOrder,
        starting_after: b.starting_after,
      };
      // The tree and the cursor are both checked before anything touches the database.
      const node = checkQuery(def.language, b.query, 'query');
      const cursor = parseCursor(def.spec, params);
      const where = await compile(node, { tenantId: call.principal.tenantId, purpose: 'list', lookup: def.lookup });
      const rows = (await applyKeyset(def.query(call, where), def.spec, params, cursor)) as R[];
      const page = toPage(def.spec, params, rows, def.render);
      return { status: 200, body: def.finish ? await def.finish(call, page) : page };
    },
  });
}
