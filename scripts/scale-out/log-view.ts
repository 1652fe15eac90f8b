// Where the scale-out and failover runs read the workspace's log from when they
// check it: the Postgres `events` table when the service keeps its log there,
// or through the service's own EventStoreDB adapter when it keeps it on an
// EventStoreDB server (`npm run failover -- --eventstoredb`). The checks read
// the log the service wrote, never a copy: on EventStoreDB the `events` table
// is empty, and a check that read it would pass vacuously.
import type { Knex } from 'knex';

/** An event as the log stores it: personal fields still sealed (verify.ts opens them). */
export interface LoggedEvent {
  tenant_id: string;
  seq: number;
  created_at: Date | string;
  type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  /** the event's id (EventStoreDB's per-node comparison uses it) */
  id: string;
}

export interface LogView {
  readonly kind: 'postgres' | 'eventstoredb';
  /** The settings a service or CLI process needs to keep its log in this store (beside DATABASE_URL). */
  readonly env: Record<string, string>;
  /** The workspace's events, ascending by seq, as stored. */
  events(tenant: string): Promise<LoggedEvent[]>;
  /** The workspace's head as the store keeps it (0 for none). */
  head(tenant: string): Promise<number>;
  /**
   * The position of the last event the webhook dispatcher has to handle: its checkpoint equals it once it has
   * handled everything. Postgres: the last row of `events`. EventStoreDB: the workspace's last event, since the run
   * gives its services a stream prefix of their own with its one workspace under it (their subscriptions see nothing else).
   */
  lastPosition(tenant: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The Postgres store's log: the `events` and `event_heads` tables of the service's database. */
export function postgresLog(db: Knex): LogView {
  return {
    kind: 'postgres',
    env: {},
    async events(tenant) {
      const rows = (await db('events')
        .where({ tenant_id: tenant })
        .orderBy('seq')
        .select('tenant_id', 'id', 'seq', 'created_at', 'type', 'aggregate_id', 'payload')) as LoggedEvent[];
      return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
    },
    async head(tenant) {
      return Number((await db('event_heads').where({ tenant_id: tenant }).first('last_seq'))?.last_seq ?? 0);
    },
    async lastPosition() {
      return (await db.raw(`SELECT tx_id::text || ':' || position::text AS p FROM events ORDER BY tx_id DESC, position DESC LIMIT 1`)).rows[0]?.p ?? null;
    },
    async close() {},
  };
}

/**
 * The log on an EventStoreDB server, read through the service's adapter (src/eventstore/eventstoredb.store.ts)
 * with the services' URL and stream prefix: what the service itself would read. Each read is tried again for
 * up to 30 s: the client fails the first call after its node went away (UNAVAILABLE) and finds the new leader
 * on the next, and a check must not fail on the fault it checks.
 */
export async function eventStoreDbLog(url: string, streamPrefix: string, db: Knex): Promise<LogView> {
  const { connectEventStoreDb } = await import('../../src/eventstore/eventstoredb.store.js');
  const store = connectEventStoreDb(url, db, { streamPrefix });
  const again = async <T>(read: () => Promise<T>): Promise<T> => {
    const until = Date.now() + 30_000;
    for (;;) {
      try {
        return await read();
      } catch (e) {
        if (Date.now() >= until) throw e;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const events = async (tenant: string) => {
    const out: LoggedEvent[] = [];
    for (;;) {
      const page = await again(() => store.readTenant(tenant, out.at(-1)?.seq ?? 0, 500));
      if (page.length === 0) return out;
      out.push(...page);
    }
  };
  return {
    kind: 'eventstoredb',
    env: { EVENTSTORE_URL: url, EVENTSTORE_STREAM_PREFIX: streamPrefix },
    events,
    head: (tenant) => again(() => store.head(tenant)),
    lastPosition: (tenant) =>
      again(async () => {
        const head = await store.head(tenant);
        if (head === 0) return null;
        const [last] = await store.readTenant(tenant, head - 1, 1);
        return last?.position ?? null;
      }),
    close: () => store.close(),
  };
}
