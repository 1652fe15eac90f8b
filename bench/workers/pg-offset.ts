// The deep-page control: the same list query our route would need without
// keyset pagination, through `pg`, one connection, back to back: LIMIT n
// OFFSET 0 (the first page) against LIMIT n OFFSET depth.
import pg from 'pg';
import { task } from '../lib/child.js';
import { summarize, type LatencySummary } from '../lib/stats.js';

export interface OffsetInput {
  url: string;
  tenantId: string;
  depth: number;
  perPage: number;
  durationS: number;
  warmupS: number;
}

export interface OffsetResult {
  first: LatencySummary;
  deep: LatencySummary;
  plan: string;
}

const SQL = `SELECT * FROM conversations WHERE tenant_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2 OFFSET $3`;

task<OffsetInput, OffsetResult>(async (input) => {
  const client = new pg.Client({ connectionString: input.url });
  await client.connect();
  try {
    const time = async (offset: number, seconds: number) => {
      const latencies: number[] = [];
      const until = performance.now() + seconds * 1000;
      while (performance.now() < until) {
        const t0 = performance.now();
        await client.query(SQL, [input.tenantId, input.perPage + 1, offset]);
        latencies.push(performance.now() - t0);
      }
      return latencies;
    };
    await time(0, input.warmupS / 2);
    await time(input.depth, input.warmupS / 2);
    const first = summarize(await time(0, input.durationS));
    const deep = summarize(await time(input.depth, input.durationS));
    const plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${SQL}`, [input.tenantId, input.perPage + 1, input.depth])).rows
      .map((r: Record<string, string>) => r['QUERY PLAN'])
      .join('\n');
    return { first, deep, plan };
  } finally {
    await client.end();
  }
});
