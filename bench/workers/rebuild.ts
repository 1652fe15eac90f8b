// The rebuild scenario, three steps in a scratch database:
//   seed:    N events through the real PostgresEventStore (es_append, expected
//            seqs), T tenants, each a realistic help-desk story (bench/lib/events.ts);
//   scan:    the baseline, a plain keyset SELECT over the same events in
//            subscription order, 5,000 rows a batch, rows materialised in JS;
//   rebuild: rebuildReadModels (src/projections/rebuild.ts) with every projector.
import pg from 'pg';
import { createDb } from '../../src/platform/db/database.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { ProjectionEngine } from '../../src/projections/engine.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';
import { allProjectors } from '../../src/capabilities/index.js';
import { task } from '../lib/child.js';
import { TenantStory } from '../lib/events.js';
import { closeKnex } from '../lib/knex-close.js';

export type RebuildInput = { step: 'seed'; url: string; events: number; tenants: number } | { step: 'scan'; url: string } | { step: 'rebuild'; url: string };

export interface RebuildStepResult {
  step: RebuildInput['step'];
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** CPU seconds of this worker process (user + system) during the step */
  workerCpuSeconds?: number;
  byType?: Record<string, number>;
}

const SEED_BATCH = 500;
const SEED_CONCURRENCY = 4;

async function seed(url: string, total: number, tenants: number): Promise<RebuildStepResult> {
  const db = createDb(url, { max: SEED_CONCURRENCY });
  const store = new PostgresEventStore(db, null);
  const started = performance.now();
  let appended = 0;
  try {
    const quota = (i: number) => Math.floor(total / tenants) + (i < total % tenants ? 1 : 0);
    let nextTenant = 0;
    const worker = async () => {
      for (;;) {
        const i = nextTenant++;
        if (i >= tenants) return;
        const story = new TenantStory(i);
        let seq = 0;
        const want = quota(i);
        while (seq < want) {
          // Whole steps only, trimmed to the quota (so the total is exact).
          const batch = story.take(Math.min(SEED_BATCH, want - seq)).slice(0, want - seq);
          const stored = await store.append(story.id, batch, seq);
          seq = stored[stored.length - 1]!.seq;
          appended += stored.length;
        }
      }
    };
    await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    // Hint bits and the visibility map set now, so neither the scan nor the rebuild pays for them first.
    await db.raw('VACUUM ANALYZE events');
    const types = await db('events').select('type').count<{ type: string; n: number }[]>({ n: '*' }).groupBy('type').orderBy('type');
    return {
      step: 'seed',
      events: appended,
      seconds,
      eventsPerSecond: appended / seconds,
      byType: Object.fromEntries(types.map((r) => [r.type, Number(r.n)])),
    };
  } finally {
    await closeKnex(db);
  }
}

async function scan(url: string): Promise<RebuildStepResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    let count = 0;
    let tx = '0';
    let pos = '0';
    for (;;) {
      const r = await client.query(
        `SELECT tenant_id, seq, id, type, aggregate_type, aggregate_id, payload, metadata, created_at, tx_id::text AS tx, position::text AS pos
           FROM events WHERE (tx_id, position) > ($1::xid8, $2::bigint) ORDER BY tx_id, position LIMIT 5000`,
        [tx, pos],
      );
      if (r.rows.length === 0) break;
      count += r.rows.length;
      const last = r.rows[r.rows.length - 1] as { tx: string; pos: string };
      tx = last.tx;
      pos = last.pos;
    }
    const seconds = (performance.now() - started) / 1000;
    return { step: 'scan', events: count, seconds, eventsPerSecond: count / seconds };
  } finally {
    await client.end();
  }
}

async function rebuild(url: string): Promise<RebuildStepResult> {
  const db = createDb(url, { max: 4 });
  try {
    const store = new PostgresEventStore(db, null);
    const engine = new ProjectionEngine(allProjectors(), { logInDatabase: true });
    const r = await rebuildReadModels(db, store, engine);
    const seconds = r.elapsedMs / 1000;
    return { step: 'rebuild', events: r.events, seconds, eventsPerSecond: r.events / seconds };
  } finally {
    await closeKnex(db);
  }
}

async function step(input: RebuildInput): Promise<RebuildStepResult> {
  switch (input.step) {
    case 'seed':
      return seed(input.url, input.events, input.tenants);
    case 'scan':
      return scan(input.url);
    case 'rebuild':
      return rebuild(input.url);
  }
}

task<RebuildInput, RebuildStepResult>(async (input) => {
  const before = process.cpuUsage();
  const r = await step(input);
  const used = process.cpuUsage(before);
  return { ...r, workerCpuSeconds: (used.user + used.system) / 1e6 };
});
