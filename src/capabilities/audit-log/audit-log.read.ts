// Reading the audit log: two sources, each walked in its own order by its own index, merged by time.
//   the log       every event, by seq (`events` with the Postgres store; `audit_log_events` with EventStoreDB):
//                 action = its type; actor, request id and client from its metadata.
//   beside it     audit_entries, by (created_at, id).
// A page takes up to per_page + 1 rows from each, after the cursor's position in each, and merges them by
// created_at (ties: entries after events in ascending order, before them in descending), keeping each source's
// own order. The cursor pins where each source stopped, so a page never skips or repeats a row of either,
// even where an event's time is a little out of seq order (commands decided together commit in seq order).
import type { Knex } from 'knex';
import { decodeCursor, encodeCursor, invalidCursor, isCursorNumber, isCursorTimestamp, type Cursor } from '../../api/pagination/cursor.js';
import type { ListEnvelope, ListParams } from '../../api/pagination/list.js';
import { constant, dateTime, int, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import type { EventStore } from '../../eventstore/store.port.js';
import type { Db } from '../../platform/db/database.js';
import { isUuid } from '../../platform/ids.js';

const ACTOR_TYPES = ['member', 'api_key', 'channel', 'system', 'job', 'rule'] as const;

export const auditEntrySchema = object(
  {
    type: constant('audit_entry'),
    id: uuid,
    action: str({
      description: 'The event type for a change (docs/events.md); else one of the actions recorded beside the log (docs/api-guide.md: Audit log).',
    }),
    seq: nullable(int),
    aggregate_type: str(),
    aggregate_id: str(),
    actor: object(
      {
        type: oneOfStrings(ACTOR_TYPES),
        id: str({
          description:
            "The member's, the API key's, the channel's or the job's id (a bulk action's changes act as their job, with its member as `member_id`); for `system`, which part of the service (e.g. `sign_in`, `unsnooze`).",
        }),
        member_id: nullable(uuid),
      },
      { title: 'AuditActor' },
    ),
    ip: nullable(str()),
    user_agent: nullable(str()),
    request_id: nullable(str()),
    created_at: dateTime,
  },
  {
    title: 'AuditEntry',
    description:
      "One entry of the audit log. `seq` is the event's, or null for an entry beside the log. `ip` and `user_agent` are personal data: null once the member (or, for a channel's post, the contact) is erased, and for what carries none (workers, entries older than this field).",
  },
);
/** An entry as rendered: `ip` and `user_agent` may still be sealed tokens, which Forgettable.reveal opens before it is sent. */
type SealedAuditEntry = Omit<Static<typeof auditEntrySchema>, 'ip' | 'user_agent'> & { ip: unknown; user_agent: unknown };

export interface AuditFilters {
  action?: string;
  actor_id?: string;
  aggregate_id?: string;
  since?: string;
  until?: string;
}

/** The table the log's events are read from: the log itself with the Postgres store, else the copy. */
export type LogTable = 'events' | 'audit_log_events';
export const logTable = (kind: EventStore['kind']): LogTable => (kind === 'postgres' ? 'events' : 'audit_log_events');

interface EventRow {
  id: string;
  seq: string | number;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  metadata: { actor?: { type: string; id: string; member_id?: string }; request_id?: string; client?: { ip?: unknown; user_agent?: unknown } };
  created_at: Date;
}

interface EntryRow {
  id: string;
  action: string;
  aggregate_type: string;
  aggregate_id: string;
  actor_type: string;
  actor_id: string;
  actor_member_id: string | null;
  client: { ip?: unknown; user_agent?: unknown } | null;
  request_id: string | null;
  created_at: Date;
}

/** Where each source stopped: the last event's seq, the last entry's (created_at, id); null for not yet. */
interface Position {
  seq: number | null;
  entry: { at: string; id: string } | null;
}

const SORT = 'created_at';

/** The cursor, checked before any query (400 invalid_cursor): the list's usual fields and both positions. */
export function parsePosition(p: ListParams): Position {
  if (!p.starting_after) return { seq: null, entry: null };
  const c = decodeCursor(p.starting_after, p.sort, p.order) as ReturnType<typeof decodeCursor> & { after?: Partial<Position> };
  const after = c.after;
  if (!isCursorTimestamp(c.key) || !isUuid(c.id) || typeof after !== 'object' || after === null) throw invalidCursor('it is malformed');
  const seq = after.seq ?? null;
  const entry = after.entry ?? null;
  if (seq !== null && !isCursorNumber(seq)) throw invalidCursor('its seq is malformed');
  if (entry !== null && (typeof entry !== 'object' || !isCursorTimestamp(entry.at) || !isUuid(entry.id))) throw invalidCursor('its entry is malformed');
  if (seq === null && entry === null) throw invalidCursor('it names no position');
  return { seq, entry };
}

const lt = (order: 'asc' | 'desc') => (order === 'asc' ? '>' : '<');

function filtered(q: Knex.QueryBuilder, f: AuditFilters, cols: { action: string; aggregate: string; actor: string[] }): Knex.QueryBuilder {
  if (f.action) q.andWhere(cols.action, f.action);
  if (f.aggregate_id) q.andWhere(cols.aggregate, f.aggregate_id);
  if (f.actor_id) q.andWhere((w) => void cols.actor.forEach((c) => w.orWhereRaw(`${c} = ?`, [f.actor_id!])));
  if (f.since) q.andWhere('created_at', '>=', f.since);
  if (f.until) q.andWhere('created_at', '<', f.until);
  return q;
}

/** One page of the audit log, newest first unless `order=asc`. Personal fields stay sealed tokens (reveal them). */
export async function auditPage(
  db: Db,
  table: LogTable,
  tenantId: string,
  p: ListParams & AuditFilters,
  at: Position,
): Promise<ListEnvelope<SealedAuditEntry>> {
  const n = p.per_page + 1;
  const events = filtered(db(table).select('id', 'seq', 'type', 'aggregate_type', 'aggregate_id', 'metadata', 'created_at').where({ tenant_id: tenantId }), p, {
    action: 'type',
    aggregate: 'aggregate_id',
    actor: ["metadata->'actor'->>'id'", "metadata->'actor'->>'member_id'"],
  });
  if (at.seq !== null) events.andWhere('seq', lt(p.order), at.seq);
  events.orderBy('seq', p.order).limit(n);
  const entries = filtered(db('audit_entries').select('*').where({ tenant_id: tenantId }), p, {
    action: 'action',
    aggregate: 'aggregate_id',
    actor: ['actor_id', 'actor_member_id::text'],
  });
  if (at.entry) entries.whereRaw(`(created_at, id) ${lt(p.order)} (?::timestamptz, ?::uuid)`, [at.entry.at, at.entry.id]);
  entries.orderBy([
    { column: 'created_at', order: p.order },
    { column: 'id', order: p.order },
  ]);
  entries.limit(n);
  const [ev, en] = (await Promise.all([events, entries])) as [EventRow[], EntryRow[]];

  // Merge, each source in its own order; `first` says whether the event goes before the entry.
  const first = (e: EventRow, x: EntryRow) =>
    p.order === 'asc' ? e.created_at.getTime() <= x.created_at.getTime() : e.created_at.getTime() > x.created_at.getTime();
  const page: SealedAuditEntry[] = [];
  let i = 0;
  let j = 0;
  const next = { ...at };
  while (page.length < p.per_page && (i < ev.length || j < en.length)) {
    const e = ev[i];
    const x = en[j];
    if (e && (!x || first(e, x))) {
      page.push(renderEvent(e));
      next.seq = Number(e.seq);
      i++;
    } else {
      page.push(renderEntry(x!));
      next.entry = { at: x!.created_at.toISOString(), id: x!.id };
      j++;
    }
  }
  const more = i < ev.length || j < en.length;
  const last = page[page.length - 1];
  return {
    type: 'list',
    data: page,
    pages: {
      type: 'pages',
      per_page: p.per_page,
      next: more && last ? { starting_after: encodeCursor(cursorOf(p.order, last, next)) } : null,
    },
  };
}

/** The list's usual cursor fields (sort, order, the last row's key and id) and where each source stopped. */
function cursorOf(order: 'asc' | 'desc', last: { created_at: string; id: string }, after: Position): Omit<Cursor, 'v'> {
  const c: Omit<Cursor, 'v'> & { after: Position } = { sort: SORT, order, key: last.created_at, id: last.id, after };
  return c;
}

const actorOf = (a: { type: string; id: string; member_id?: string | null } | undefined) => ({
  type: (a?.type ?? 'system') as (typeof ACTOR_TYPES)[number],
  id: a?.id ?? 'unknown',
  member_id: a?.member_id ?? null,
});

export function renderEvent(r: EventRow): SealedAuditEntry {
  const m = r.metadata ?? {};
  return {
    type: 'audit_entry',
    id: r.id,
    action: r.type,
    seq: Number(r.seq),
    aggregate_type: r.aggregate_type,
    aggregate_id: r.aggregate_id,
    actor: actorOf(m.actor),
    ip: m.client?.ip ?? null,
    user_agent: m.client?.user_agent ?? null,
    request_id: m.request_id ?? null,
    created_at: r.created_at.toISOString(),
  };
}

export function renderEntry(r: EntryRow): SealedAuditEntry {
  return {
    type: 'audit_entry',
    id: r.id,
    action: r.action,
    seq: null,
    aggregate_type: r.aggregate_type,
    aggregate_id: r.aggregate_id,
    actor: actorOf({ type: r.actor_type, id: r.actor_id, member_id: r.actor_member_id }),
    ip: r.client?.ip ?? null,
    user_agent: r.client?.user_agent ?? null,
    request_id: r.request_id,
    created_at: r.created_at.toISOString(),
  };
}
