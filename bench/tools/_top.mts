import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.js';
const cluster = await startEmbeddedPostgres({ dataDir: '/work/main/bench/.data', adoptOrphans: true, log: () => undefined });
const c = new pg.Client({ connectionString: cluster.url('postgres') });
await c.connect();
const r = await c.query(`SELECT calls, round(total_exec_time::numeric,0) AS total, round(mean_exec_time::numeric,3) AS mean, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS q FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT ${process.argv[2] ?? 15}`);
for (const x of r.rows) console.log(String(x.calls).padStart(7), String(x.total).padStart(7), String(x.mean).padStart(9), String(x.rows).padStart(8), x.q);
await c.end(); await cluster.stop();
