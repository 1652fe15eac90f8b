// Past states and histories of one aggregate (issue 29, item 6): what a
// resource route adds for `?as_of_seq=N`, and `GET …/{id}/history`, the
// aggregate's own events oldest first with who did each. Read through the
// store port (personal fields opened where their keys still exist, null where
// erased), so they work on either event store.
import type { StoredEvent } from '../eventstore/envelope.js';
import type { EventStore } from '../eventstore/store.port.js';
import { BadRequest, NotFound } from '../platform/errors.js';
import { isUuid } from '../platform/ids.js';
import { listQuerySchema, parseCursor, toPage, type ListParams, type ListSpec } from './pagination/list.js';
import { route, type PathParams, type Call, type Permission, type RouteDef } from './routes.js';
import { anyObject, dateTime, int, listOf, nullable, object, oneOfStrings, str, uuid } from './schemas.js';
import type { Schema } from './validation.js';

/** The query of a resource's GET that can answer a past state. */
export const asOfQuery: Schema = {
  additionalProperties: false,
  properties: {
    as_of_seq: {
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Answer the resource as it was right after the event with this seq (folded from its own events); 404 if it did not exist yet.',
    },
    // `workspace` names a session caller's workspace (spec 5.4) and may ride along on any route.
    workspace: { type: 'string', maxLength: 200 },
  },
};

/** 400 `seq_ahead_of_log` when the workspace's log has not reached `seq`. */
export async function checkAsOf(store: EventStore, tenantId: string, seq: number): Promise<void> {
  const head = await store.head(tenantId);
  if (seq > head) throw new BadRequest('seq_ahead_of_log', `as_of_seq ${seq} is ahead of the log, whose head is seq ${head}.`, 'as_of_seq');
}

/**
 * A resource's GET that also answers a past state: with `?as_of_seq=N`, `past` folds the resource as it was
 * right after event N (404 when it did not exist yet, 400 `seq_ahead_of_log` beyond the head); without it,
 * the route answers as it always did.
 */
export function withAsOf(
  def: RouteDef,
  store: EventStore,
  what: string,
  past: (call: Call<unknown, { as_of_seq?: number }, '/:id'>, asOfSeq: number) => Promise<unknown>,
): RouteDef {
  // A resource's past is read by the id its path ends in (what `past` is typed to be given).
  if (!def.path.endsWith('/:id')) throw new Error(`withAsOf: ${def.path} does not end in /:id; refusing to start`);
  return {
    ...def,
    summary: `${def.summary} (or as it was right after event \`as_of_seq\`)`,
    query: asOfQuery,
    async handle(call: Call<unknown, { as_of_seq?: number }>) {
      const asOfSeq = call.query.as_of_seq;
      if (asOfSeq === undefined) return def.handle(call);
      await checkAsOf(store, call.principal.tenantId, asOfSeq);
      const body = await past(call as Call<unknown, { as_of_seq?: number }, '/:id'>, asOfSeq);
      if (body === null || body === undefined) throw new NotFound(what);
      return { status: 200, body };
    },
  };
}

/** Events read per page while folding. */
const PAGE = 1000;

/** An aggregate's own events up to `toSeq`, oldest first, personal fields opened (null where erased since). */
export async function eventsUpTo(store: EventStore, tenantId: string, aggregateId: string, toSeq: number): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const page = await store.readAggregate(tenantId, aggregateId, { afterSeq: out.length ? out[out.length - 1]!.seq : 0, toSeq, limit: PAGE });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

const historySpec: ListSpec = { itemType: 'event', sorts: { seq: { column: 'seq', kind: 'number' } }, defaultSort: 'seq', defaultOrder: 'asc' };

const actorSchema = object(
  {
    type: oneOfStrings(['member', 'api_key', 'channel', 'system', 'job', 'rule']),
    id: str({ description: "The member's, key's or channel's id; for the system, what acted (`unsnooze`, `cli`, ...)." }),
    member_id: nullable(uuid, { description: 'The member behind it (an API key acts as its member); null for channels and the system.' }),
  },
  { title: 'Actor' },
);

export const historyEventSchema = object(
  {
    type: str({ description: 'The event type (docs/events.md).' }),
    id: uuid,
    tenant_id: uuid,
    seq: int,
    aggregate_type: str(),
    aggregate_id: str(),
    payload: anyObject({ description: "The event's payload; personal fields opened, null where erased since." }),
    actor: nullable(actorSchema, { description: 'Who did it; null for events written before actors were recorded.' }),
    request_id: nullable(str(), { description: 'The request that wrote it, when it came through the API.' }),
    created_at: dateTime,
  },
  { title: 'HistoryEvent' },
);

export const renderHistoryEvent = (e: StoredEvent) => ({
  type: e.type,
  id: e.id,
  tenant_id: e.tenant_id,
  seq: e.seq,
  aggregate_type: e.aggregate_type,
  aggregate_id: e.aggregate_id,
  payload: e.payload,
  actor: e.metadata.actor ? { type: e.metadata.actor.type, id: e.metadata.actor.id, member_id: e.metadata.actor.member_id ?? null } : null,
  request_id: e.metadata.request_id ?? null,
  created_at: e.created_at,
});

/** `GET …/{id}/history`: the aggregate's events, oldest first, each with its actor, in the list envelope. */
/** A history route's path names its aggregate `:id` last (`/contacts/:id/history`). */
export function historyRoute<P extends `${string}/:id/history`>(def: {
  path: P;
  permission: Permission;
  summary: string;
  /** names the thing in the 404 */
  what: string;
  store: EventStore;
  /** whether the aggregate exists (now, or ever: an erased contact still has a history) */
  exists(call: Call<any, any, P>): Promise<boolean>;
}): RouteDef {
  const schema = listQuerySchema(historySpec);
  // Oldest first only: it is the order the events happened in.
  (schema.properties as Record<string, { enum?: string[] }>).order!.enum = ['asc'];
  return route<unknown, ListParams, P>({
    method: 'get',
    path: def.path,
    permission: def.permission,
    summary: def.summary,
    responses: { 200: listOf(historyEventSchema) },
    query: schema,
    async handle(call) {
      const cursor = parseCursor(historySpec, call.query);
      const id = (call.params as PathParams<'/:id/history'>).id;
      if (!isUuid(id) || !(await def.exists(call))) throw new NotFound(def.what);
      const rows = await def.store.readAggregate(call.principal.tenantId, id.toLowerCase(), {
        afterSeq: cursor ? Number(cursor.key) : 0,
        limit: call.query.per_page + 1,
      });
      return { status: 200, body: toPage(historySpec, call.query, rows, renderHistoryEvent) };
    },
  });
}
