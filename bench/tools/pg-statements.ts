// Counts round trips: pg_stat_statements on the bench's embedded Postgres.
//   node --import tsx bench/tools/pg-statements.ts enable     (restarts nothing: takes effect at the next start)
//   node --import tsx bench/tools/pg-statements.ts reset
//   npm run bench -- write --keep                            (keep bench_main for the report)
//   node --import tsx bench/tools/pg-statements.ts report [database=bench_main] [divide-by=1]
//   node --import tsx bench/tools/pg-statements.ts disable    (before taking figures of record)
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.js';
import { REPO_ROOT } from '../lib/child.js';

const [cmd, database = 'bench_main', divide = '1'] = process.argv.slice(2);
if (!['enable', 'disable', 'reset', 'report'].includes(cmd ?? '')) {
  console.error('usage: node --import tsx bench/tools/pg-statements.ts enable|disable|reset|report [database] [divide-by]');
  process.exit(2);
}
const dataDir = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, 'bench', '.data'));
const cluster = await startEmbeddedPostgres({ dataDir, adoptOrphans: true, log: () => undefined });
const c = new pg.Client({ connectionString: cluster.url('postgres') });
await c.connect();
try {
  if (cmd === 'enable') {
    await c.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
    // Planning time too: an unnamed statement is planned on every execution (see src/platform/db/prepared.ts).
    await c.query('ALTER SYSTEM SET pg_stat_statements.track_planning = on');
  }
  if (cmd === 'disable') {
    await c.query('ALTER SYSTEM RESET shared_preload_libraries');
    await c.query('ALTER SYSTEM RESET pg_stat_statements.track_planning');
  }
  if (cmd === 'reset' || cmd === 'report') await c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  if (cmd === 'reset') await c.query('SELECT pg_stat_statements_reset()');
  if (cmd === 'report') {
    const n = Number(divide);
    const r = await c.query(
      `SELECT s.calls, s.total_exec_time AS total, s.mean_exec_time AS mean, s.total_plan_time / greatest(s.calls, 1) AS plan, regexp_replace(s.query, '\\s+', ' ', 'g') AS q
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 ORDER BY s.calls DESC LIMIT 60`,
      [database],
    );
    console.log(`${'calls'.padStart(8)} ${'per unit'.padStart(8)} ${'plan ms'.padStart(8)} ${'exec ms'.padStart(8)}  statement (plan, exec: ms per call)`);
    for (const row of r.rows as { calls: string; total: number; mean: number; plan: number; q: string }[]) {
      console.log(
        `${row.calls.padStart(8)} ${(Number(row.calls) / n).toFixed(2).padStart(8)} ${row.plan.toFixed(3).padStart(8)} ${row.mean.toFixed(3).padStart(8)}  ${row.q.slice(0, 120)}`,
      );
    }
  }
  console.log(`${cmd}: done${cmd === 'enable' || cmd === 'disable' ? ' (takes effect when the cluster next starts)' : ''}`);
} finally {
  await c.end();
  await cluster.stop();
}
