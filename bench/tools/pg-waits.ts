// Samples pg_stat_activity while a bench scenario runs, to see where the
// service's sessions spend their time (waiting for a lock, for the client,
// for WAL, or running). Attaches to the bench's embedded Postgres (or
// DATABASE_URL), samples every 10 ms for N seconds, prints the tally.
//   node --import tsx bench/tools/pg-waits.ts [seconds=10] [application_name=conversation-service]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from '../lib/child.js';

const seconds = Number(process.argv[2] ?? 10);
const app = process.argv[3] ?? 'conversation-service';
function url(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dir = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, 'bench', '.data'));
  const port = readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3];
  const c = JSON.parse(readFileSync(path.join(dir, 'pg-credentials.json'), 'utf8')) as { user: string; password: string };
  return `postgres://${c.user}:${encodeURIComponent(c.password)}@127.0.0.1:${port}/postgres`;
}
const client = new pg.Client({ connectionString: url() });
await client.connect();
const tally = new Map<string, number>();
let samples = 0;
const until = Date.now() + seconds * 1000;
while (Date.now() < until) {
  const r = await client.query(
    `SELECT state, coalesce(wait_event_type, '-') AS wt, coalesce(wait_event, '-') AS we, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS q
       FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
    [app],
  );
  if (r.rows.length) samples++;
  for (const row of r.rows as { state: string; wt: string; we: string; q: string }[]) {
    const k = row.state === 'idle' ? 'idle (in pool)' : `${row.state} | ${row.wt}:${row.we} | ${row.state === 'active' || row.wt !== 'Client' ? row.q : row.q}`;
    tally.set(k, (tally.get(k) ?? 0) + 1);
  }
  await new Promise((r) => setTimeout(r, 10));
}
await client.end();
console.log(`${samples} samples; mean sessions per sample in each state:`);
for (const [k, n] of [...tally].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(n / Math.max(samples, 1)).toFixed(2).padStart(6)}  ${k}`);
