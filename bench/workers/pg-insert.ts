// The baseline of the write scenario: raw single-row INSERT transactions
// (BEGIN; INSERT; COMMIT) through `pg` at the same concurrency, into a scratch
// table, as fast as they go.
import pg from 'pg';
import { task } from '../lib/child.js';
import { sleep, summarize, type LatencySummary } from '../lib/stats.js';

export interface PgInsertInput {
  url: string;
  concurrency: number;
  durationS: number;
  warmupS: number;
}

export interface PgInsertResult {
  tps: number;
  transactions: number;
  durationS: number;
  latencyMs: LatencySummary;
  /** every committed transaction, warm-up included, and this process's CPU over all of them (for CPU per transaction) */
  allTransactions: number;
  clientCpuMs: number;
}

const BODY = 'Hello, my order #4411 has not arrived yet and the tracking page has said "label created" for six days. Can you check?';

task<PgInsertInput, PgInsertResult>(async (input) => {
  const cpu0 = process.cpuUsage();
  const pool = new pg.Pool({ connectionString: input.url, max: input.concurrency });
  try {
    await pool.query(`CREATE TABLE IF NOT EXISTS bench_insert_baseline (
      id bigserial PRIMARY KEY, tenant_id uuid NOT NULL, subject text, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    let phase: 'warmup' | 'measure' | 'stop' = 'warmup';
    let count = 0;
    let all = 0;
    const latencies: number[] = [];
    const tenant = '00000000-0000-4000-8000-00000000beef';
    const worker = async (w: number) => {
      const client = await pool.connect();
      try {
        for (let i = 0; phase !== 'stop'; i++) {
          const t0 = performance.now();
          await client.query('BEGIN');
          await client.query('INSERT INTO bench_insert_baseline (tenant_id, subject, body) VALUES ($1, $2, $3)', [tenant, `Order ${w}-${i}`, BODY]);
          await client.query('COMMIT');
          all++;
          if (phase === 'measure') {
            count++;
            latencies.push(performance.now() - t0);
          }
        }
      } finally {
        client.release();
      }
    };
    const workers = Array.from({ length: input.concurrency }, (_, w) => worker(w));
    await sleep(input.warmupS * 1000);
    phase = 'measure';
    const started = performance.now();
    await sleep(input.durationS * 1000);
    phase = 'stop';
    const seconds = (performance.now() - started) / 1000;
    const measured = count;
    await Promise.all(workers);
    const used = process.cpuUsage(cpu0);
    const allTransactions = all;
    await pool.query('DROP TABLE IF EXISTS bench_insert_baseline');
    return {
      tps: measured / seconds,
      transactions: measured,
      durationS: seconds,
      latencyMs: summarize(latencies),
      allTransactions,
      clientCpuMs: (used.user + used.system) / 1000,
    };
  } finally {
    await pool.end();
  }
});
