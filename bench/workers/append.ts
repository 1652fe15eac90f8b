// The append scenario: W writers, one per tenant (or stream), each appending
// the next step of its tenant's story (1 to 3 events, as commands do) in a
// loop, for a fixed time. `ours` goes through PostgresEventStore.append (one
// es_append statement); `emmett` through @event-driven-io/emmett-postgresql's
// getPostgreSQLEventStore().appendToStream, on a pg pool of the same size, in
// the same database. Both see the same event shapes from the same seeds.
// `eventstoredb` is ours again with the log on an EventStoreDB server
// (EventStoreDbStore.append: the id index lookup in this database, the append
// at the head it read, the index rows, the read-back), the same calls.
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import { createDb } from '../../src/platform/db/database.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import type { PendingEvent } from '../../src/eventstore/envelope.js';
import { task } from '../lib/child.js';
import { TenantStory } from '../lib/events.js';
import { sleep, summarize, type LatencySummary } from '../lib/stats.js';
import { closeKnex } from '../lib/knex-close.js';

export interface AppendInput {
  url: string;
  /**
   * `ours-quiet` is an experiment, not a figure of record: es_append without
   * its in-transaction pg_notify (a copy made in the scratch database), the
   * NOTIFY sent after commit instead, coalesced to one in flight per process.
   */
  store: 'ours' | 'emmett' | 'ours-quiet' | 'eventstoredb';
  /** the server and this run's stream prefix, for `eventstoredb` */
  eventstore?: { url: string; streamPrefix: string };
  writers: number;
  durationS: number;
  warmupS: number;
}

export interface AppendResult {
  store: AppendInput['store'];
  eventsPerSecond: number;
  appendsPerSecond: number;
  events: number;
  appends: number;
  durationS: number;
  meanEventBytes: number;
  latencyMs: LatencySummary;
}

type AppendFn = (writer: number, stream: string, events: PendingEvent[]) => Promise<void>;

async function open(input: AppendInput): Promise<{ append: AppendFn; close(): Promise<void> }> {
  if (input.store === 'ours') {
    const db = createDb(input.url, { max: input.writers });
    const store = new PostgresEventStore(db, null);
    return {
      append: async (_w, tenant, events) => {
        await store.append(tenant, events, 'any');
      },
      close: () => closeKnex(db),
    };
  }
  if (input.store === 'eventstoredb') {
    if (!input.eventstore) throw new Error('the eventstoredb append needs a server');
    // The id index (esdb_event_ids) lives in this database, as the service keeps it beside its read models.
    const db = createDb(input.url, { max: input.writers });
    const { connectEventStoreDb } = await import('../../src/eventstore/eventstoredb.store.js');
    const store = connectEventStoreDb(input.eventstore.url, db, { streamPrefix: input.eventstore.streamPrefix });
    return {
      append: async (_w, tenant, events) => {
        await store.append(tenant, events, 'any');
      },
      close: async () => {
        await store.close();
        await closeKnex(db);
      },
    };
  }
  if (input.store === 'ours-quiet') {
    const db = createDb(input.url, { max: input.writers + 1 });
    const def = (await db.raw(`SELECT pg_get_functiondef('es_append(uuid, bigint, jsonb)'::regprocedure) AS d`)).rows[0].d as string;
    const quiet = def.replace(/PERFORM pg_notify\([^;]*\);/, '').replace(/FUNCTION [^(]*es_append\(/, 'FUNCTION es_append_quiet(');
    if (quiet === def || !quiet.includes('es_append_quiet(')) throw new Error('could not derive es_append_quiet from es_append');
    await db.raw(quiet);
    let inFlight: Promise<unknown> | null = null;
    let again = false;
    const nudge = () => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = db.raw(`SELECT pg_notify('es_events', '')`).finally(() => {
        inFlight = null;
        if (again) {
          again = false;
          nudge();
        }
      });
    };
    return {
      append: async (_w, tenant, events) => {
        // The same columns PostgresEventStore.append reads back, so only the NOTIFY differs.
        await db.raw(
          'SELECT tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, tx_id::text AS tx_id, position::text AS position FROM es_append_quiet(?::uuid, NULL, ?::jsonb)',
          [tenant, JSON.stringify(events)],
        );
        nudge();
      },
      close: async () => {
        await inFlight;
        await closeKnex(db);
      },
    };
  }
  const pool = new pg.Pool({ connectionString: input.url, max: input.writers });
  const store = getPostgreSQLEventStore(input.url, { connectionOptions: { pool }, schema: { autoMigration: 'CreateOrUpdate' } });
  await store.schema.migrate();
  return {
    append: async (_w, tenant, events) => {
      await store.appendToStream(
        `tenant-${tenant}`,
        events.map((e) => ({ type: e.type, data: e.payload, metadata: { ...e.metadata, aggregate_type: e.aggregate_type, aggregate_id: e.aggregate_id } })),
      );
    },
    close: async () => {
      await store.close();
      await pool.end().catch(() => undefined);
    },
  };
}

task<AppendInput, AppendResult>(async (input) => {
  const target = await open(input);
  try {
    let phase: 'warmup' | 'measure' | 'stop' = 'warmup';
    let events = 0;
    let appends = 0;
    let bytes = 0;
    const latencies: number[] = [];
    const writer = async (w: number) => {
      const story = new TenantStory(w);
      while (phase !== 'stop') {
        const batch = story.next();
        const t0 = performance.now();
        await target.append(w, story.id, batch);
        if (phase === 'measure') {
          latencies.push(performance.now() - t0);
          appends++;
          events += batch.length;
          for (const e of batch) bytes += JSON.stringify(e.payload).length;
        }
      }
    };
    const running = Array.from({ length: input.writers }, (_, w) => writer(w));
    await sleep(input.warmupS * 1000);
    phase = 'measure';
    const started = performance.now();
    await sleep(input.durationS * 1000);
    const [e, a, b] = [events, appends, bytes];
    const seconds = (performance.now() - started) / 1000;
    phase = 'stop';
    await Promise.all(running);
    return {
      store: input.store,
      eventsPerSecond: e / seconds,
      appendsPerSecond: a / seconds,
      events: e,
      appends: a,
      durationS: seconds,
      meanEventBytes: e ? Math.round(b / e) : 0,
      latencyMs: summarize(latencies),
    };
  } finally {
    await target.close();
  }
});
