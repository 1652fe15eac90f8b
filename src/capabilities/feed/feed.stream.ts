// GET /api/events/stream: the change feed as Server-Sent Events, for a client
// that cannot receive webhooks (behind a firewall) and for agent UIs. Each feed
// event is one SSE event: `id:` its seq, `event:` its type, `data:` the element
// GET /api/events shows (same scope, same holes: a member's private views).
// Resumable: `Last-Event-ID` (what EventSource sends when it reconnects) or
// `after_seq`; filtered with `types=`. It reads pages of the feed and, once it
// is at the head, waits to be woken: by a commit of this process, by the log's
// NOTIFY (every process of the Postgres store), or at the latest after
// STREAM_POLL_MS (EventStoreDB, a lost notification); when it has sent nothing
// for STREAM_HEARTBEAT_MS it sends a comment line.
//
// Bounded: the stream is pulled (the next page is read only once the socket
// took the last one), so a slow client holds one page in memory at most; a
// client that takes nothing for STREAM_STALL_MS is cut, and resumes from its
// last id. A caller holds at most STREAM_MAX_PER_CALLER streams in a process.
import type { Knex } from 'knex';
import { route, ResponseDoc, type RouteDef } from '../../api/routes.js';
import { EVENTS_CHANNEL } from '../../eventstore/postgres.store.js';
import { anyEventSchema } from '../../eventstore/event-schemas.js';
import { AppError, BadRequest } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { privateViewEventsSql } from '../views/index.js';
import { FEED_COLUMNS, feedTable, renderFeedEvent, type FeedRow, type FeedTable } from './feed.read.js';

/** Events read per page: what a slow client can make the process hold. */
const PAGE = 200;
/** What is written at once (a client must take it within STREAM_STALL_MS): 64 KiB, or one event larger than that. */
const PIECE = 64 * 1024;
const SEQ = /^\d{1,15}$/;
const TYPES = '^[a-z_]+\\.[a-z_]+(,[a-z_]+\\.[a-z_]+)*$';

/** The feed's rows of a workspace after a seq, as GET /api/events reads them (a private view's events left out). */
export function feedRows(db: Knex, table: FeedTable, tenantId: string, afterSeq: number, types: readonly string[]): Knex.QueryBuilder {
  const q = db(table)
    .select(FEED_COLUMNS)
    .where({ tenant_id: tenantId })
    .whereRaw(`NOT ${privateViewEventsSql(table)}`)
    .andWhere('seq', '>', afterSeq);
  return types.length ? q.whereIn('type', types) : q;
}

/** What wakes the streams of this process: its own commits, and the log's NOTIFY (listened to once one stream opens). */
class Wakeups {
  private readonly waiting = new Map<string, Set<() => void>>();
  private listening: Promise<unknown> | null = null;

  constructor(private readonly deps: CoreDeps) {
    deps.shell.onCommitted((tenantId) => this.wake(tenantId));
  }

  private wake(tenantId: string | null): void {
    const sets = tenantId === null ? [...this.waiting.values()] : [this.waiting.get(tenantId)].filter((s) => s !== undefined);
    for (const set of sets) for (const w of [...set]) w();
  }

  /** Resolves when the workspace may have new events, or after `ms`, or when `signal` aborts. */
  async wait(tenantId: string, ms: number, signal: AbortSignal): Promise<void> {
    // The store's NOTIFY names no workspace: every waiting stream looks. Only the Postgres store sends it.
    if (this.deps.store.kind === 'postgres')
      this.listening ??= this.deps.notifier
        .listen(EVENTS_CHANNEL, () => this.wake(null))
        .catch((e) => {
          this.listening = null;
          this.deps.log.warn({ err: e }, 'event stream: LISTEN failed; streams poll');
        });
    await new Promise<void>((resolve) => {
      let set = this.waiting.get(tenantId);
      if (!set) this.waiting.set(tenantId, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.waiting.get(tenantId) === set) this.waiting.delete(tenantId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      set.add(done);
    });
  }
}

/** A page of the feed as a stream sends it: its SSE text in pieces of about PIECE bytes, and its last seq. */
interface Page {
  pieces: string[];
  last: number;
}

/**
 * The pages streams read, shared: the streams of one workspace that wait at the same seq for the same types are
 * woken together by one commit, and read the page after it together: one statement, one opening of its sealed
 * payloads, one rendering, instead of one each (with 100 streams open, the difference between a page read 100
 * times a commit and once). Only reads in flight are shared; nothing is kept once they are answered.
 */
class SharedPages {
  private readonly reading = new Map<string, Promise<Page | null>>();

  constructor(private readonly deps: CoreDeps) {}

  next(tenantId: string, types: readonly string[], after: number): Promise<Page | null> {
    const key = `${tenantId}|${after}|${types.join(',')}`;
    let read = this.reading.get(key);
    if (!read) {
      read = this.read(tenantId, types, after).finally(() => this.reading.delete(key));
      this.reading.set(key, read);
    }
    return read;
  }

  private async read(tenantId: string, types: readonly string[], after: number): Promise<Page | null> {
    const { db, forgettable, store } = this.deps;
    const rows = (await feedRows(db, feedTable(store.kind), tenantId, after, types).orderBy('seq', 'asc').limit(PAGE)) as FeedRow[];
    if (rows.length === 0) return null;
    // Payloads as the log keeps them, personal fields sealed: opened as the feed opens them (null once erased).
    const events = (await forgettable.reveal(db, tenantId, rows.map(renderFeedEvent))) as { seq: number; type: string }[];
    // In pieces of about PIECE bytes: each must be taken within STREAM_STALL_MS, so a client that reads slowly but
    // steadily keeps its stream, and one that stopped is found within that time.
    const pieces: string[] = [];
    let piece = '';
    for (const e of events) {
      piece += sseEvent(e);
      if (piece.length >= PIECE) {
        pieces.push(piece);
        piece = '';
      }
    }
    if (piece) pieces.push(piece);
    return { pieces, last: rows[rows.length - 1]!.seq };
  }
}

/** The SSE lines of one feed element (`data` is one line: JSON has no raw newline). */
const sseEvent = (e: { seq: number; type: string }) => `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

export function eventStreamRoute(deps: CoreDeps): RouteDef {
  const { catalogue, config } = deps;
  // Made with the first stream: the route is also built where nothing runs (the OpenAPI document).
  let wakeups: Wakeups | null = null;
  const pages = new SharedPages(deps);
  const open = new Map<string, number>();
  return route<unknown, { after_seq?: number; types?: string }>({
    method: 'get',
    path: '/events/stream',
    permission: 'events:read',
    summary: 'The change feed as Server-Sent Events: live, resumable with Last-Event-ID',
    query: {
      additionalProperties: false,
      properties: {
        after_seq: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Start after this seq (default 0); Last-Event-ID wins.' },
        types: { type: 'string', pattern: TYPES, maxLength: 2000, description: 'Comma-separated event types: only these are sent.' },
        workspace: { type: 'string', maxLength: 200 },
      },
    },
    responses: {
      200: new ResponseDoc(
        'text/event-stream: one event per feed element (`id:` its seq, `event:` its type, `data:` the element as GET /api/events shows it), comment lines as heartbeats. It does not end by itself; reconnect with `Last-Event-ID` (EventSource does) to resume.',
        anyEventSchema(catalogue, { withId: true, title: 'StreamedEvent', variantSuffix: 'StreamedEvent' }),
        null,
        'text/event-stream',
      ),
    },
    async handle(call) {
      const { principal, query, req } = call;
      const lastId = req.get('last-event-id');
      if (lastId !== undefined && !SEQ.test(lastId.trim()))
        throw new BadRequest('invalid_last_event_id', 'Last-Event-ID must be the seq of an event this stream sent (a whole number).', 'Last-Event-ID');
      const types = (query.types ?? '').split(',').filter(Boolean);
      const unknown = types.filter((t) => !catalogue.has(t));
      if (unknown.length)
        throw new BadRequest('unknown_event_type', `types names events the service never emits: ${unknown.join(', ')}. See docs/events.md.`, 'types');
      const held = open.get(principal.callerId) ?? 0;
      if (held >= config.streamMaxPerCaller)
        throw new AppError(
          429,
          'too_many_streams',
          `A caller holds at most ${config.streamMaxPerCaller} open event streams here; close one first.`,
          undefined,
          [],
          {
            'Retry-After': '5',
          },
        );
      open.set(principal.callerId, held + 1);
      const wake = (wakeups ??= new Wakeups(deps));
      const tenantId = principal.tenantId;
      let after = lastId !== undefined ? Number(lastId.trim()) : (query.after_seq ?? 0);
      const closed = new AbortController();
      req.once('close', () => closed.abort());
      // The service stopping ends the stream as a whole answer (the client's EventSource reconnects, to another
      // process behind the balancer), instead of holding the stop until its connection is cut.
      const stopped = () => closed.abort();
      if (deps.stopping?.aborted) closed.abort();
      else deps.stopping?.addEventListener('abort', stopped, { once: true });
      const release = () => {
        const n = (open.get(principal.callerId) ?? 1) - 1;
        if (n > 0) open.set(principal.callerId, n);
        else open.delete(principal.callerId);
      };

      async function* stream(): AsyncGenerator<string> {
        try {
          let sentAt = Date.now();
          /** Yields a piece; a client that has not taken it within STREAM_STALL_MS is cut (it resumes from its last id). */
          async function* send(chunk: string): AsyncGenerator<string> {
            const stall = setTimeout(() => req.socket.destroy(), config.streamStallMs);
            try {
              yield chunk;
            } finally {
              clearTimeout(stall);
            }
            sentAt = Date.now();
          }
          // EventSource's reconnection delay, then the events.
          yield* send('retry: 2000\n\n');
          while (!closed.signal.aborted) {
            const page = await pages.next(tenantId, types, after);
            if (page) {
              after = page.last;
              for (const piece of page.pieces) yield* send(piece);
              continue;
            }
            const quiet = Date.now() - sentAt;
            if (quiet >= config.streamHeartbeatMs) {
              yield* send(': heartbeat\n\n');
              continue;
            }
            await wake.wait(tenantId, Math.min(config.streamPollMs, config.streamHeartbeatMs - quiet), closed.signal);
          }
        } finally {
          deps.stopping?.removeEventListener('abort', stopped);
          release();
        }
      }

      return {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          // nginx (the scale-out topology) passes each event on at once instead of buffering the response.
          'x-accel-buffering': 'no',
        },
        stream: stream(),
      };
    },
  });
}
