// `npm run prometheus-check`: proves a real Prometheus reads GET /metrics.
//
// Installs Debian's `prometheus` package when it is missing (as root), starts
// the service on 127.0.0.1 (embedded Postgres in a temp dir) with a
// METRICS_TOKEN, runs Prometheus on 127.0.0.1 scraping it every second with
// that token (`authorization` credentials), makes a few API requests, and asks
// Prometheus's own HTTP API (/api/v1/query) for the request counter, then runs
// `promtool check metrics` (same package) over a scrape of /metrics. Exits
// non-zero when the value is not there or promtool prints any problem. Bounded in time (PROM_CHECK_TIMEOUT_SECONDS,
// default 240); whatever happens, it stops what it started and removes its temp dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARS } from '../src/config.js';
import { freePort } from '../src/platform/db/embedded-postgres.js';
import { ensureDebianPackage } from './lib/debian.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROMETHEUS = '/usr/bin/prometheus';
const PROMTOOL = '/usr/bin/promtool';
const TIMEOUT_S = Number(process.env.PROM_CHECK_TIMEOUT_SECONDS ?? 240);
const REQUESTS = 5;

const log = (m: string) => console.error(`[prometheus-check] ${m}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const tail = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-25).join('\n');
  } catch {
    return '(no log)';
  }
};

const children: ChildProcess[] = [];
let tmp: string | null = null;

function start(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.push(child);
  return child;
}

const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

async function waitOk(url: string, child: ChildProcess, what: string, logFile: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!alive(child)) throw new Error(`${what} exited before it was ready\n--- ${logFile} ---\n${tail(logFile)}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms\n--- ${logFile} ---\n${tail(logFile)}`);
}

async function stopAll(): Promise<void> {
  await Promise.all(
    children.filter(alive).map(
      (c) =>
        new Promise<void>((resolve) => {
          const kill = setTimeout(() => c.kill('SIGKILL'), 15_000);
          c.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  );
  if (tmp && process.env.PROM_CHECK_KEEP !== '1') await fs.rm(tmp, { recursive: true, force: true });
  else if (tmp) log(`kept ${tmp}`);
}

/** Asks Prometheus for an instant vector; the first sample's value, or null. */
async function query(promUrl: string, q: string): Promise<number | null> {
  const r = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(q)}`);
  const body = (await r.json()) as { status: string; data?: { result: { value: [number, string] }[] }; error?: string };
  if (body.status !== 'success') throw new Error(`Prometheus query ${q} failed: ${body.error}`);
  const first = body.data?.result[0];
  return first ? Number(first.value[1]) : null;
}

async function main(): Promise<void> {
  await ensureDebianPackage(PROMETHEUS, 'prometheus', log);
  await ensureDebianPackage(PROMTOOL, 'prometheus', log);
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'prom-check-'));
  // The embedded Postgres runs as the postgres user when we are root: it must reach DATA_DIR.
  await fs.chmod(tmp, 0o755);
  const token = randomBytes(24).toString('base64url');
  const [servicePort, promPort] = [await freePort(), await freePort()];

  // The service, with nothing of the caller's configuration but what is set here.
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CONFIG_VARS) delete env[k];
  const serviceLog = path.join(tmp, 'service.log');
  const service = start(
    process.execPath,
    ['--import', 'tsx', 'src/main.ts'],
    { ...env, PORT: String(servicePort), HOST: '127.0.0.1', DATA_DIR: path.join(tmp, 'data'), METRICS_TOKEN: token, LOG_LEVEL: 'warn' },
    serviceLog,
  );
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  log(`service starting on ${serviceUrl} (embedded Postgres in ${tmp})`);
  await waitOk(`${serviceUrl}/readyz`, service, 'the service', serviceLog);
  const denied = await fetch(`${serviceUrl}/metrics`);
  if (denied.status !== 401) throw new Error(`GET /metrics without the token answered ${denied.status}, not 401`);

  const config = `global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: conversation-service
    metrics_path: /metrics
    authorization:
      type: Bearer
      credentials: ${JSON.stringify(token)}
    static_configs:
      - targets: ['127.0.0.1:${servicePort}']
`;
  const configFile = path.join(tmp, 'prometheus.yml');
  await fs.writeFile(configFile, config, { mode: 0o600 });
  const promLog = path.join(tmp, 'prometheus.log');
  const prometheus = start(
    PROMETHEUS,
    [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(tmp, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn'],
    env,
    promLog,
  );
  const promUrl = `http://127.0.0.1:${promPort}`;
  log(`prometheus starting on ${promUrl}`);
  await waitOk(`${promUrl}/-/ready`, prometheus, 'prometheus', promLog);

  for (let i = 0; i < REQUESTS; i++) {
    const r = await fetch(`${serviceUrl}/api/me`);
    await r.arrayBuffer();
    if (r.status !== 401) throw new Error(`GET /api/me without credentials answered ${r.status}, not 401`);
  }
  log(`made ${REQUESTS} requests to GET /api/me; waiting for a scrape`);

  const q = 'sum(service_http_requests_total{job="conversation-service",route="/api/me",method="GET",status="401"})';
  const until = Date.now() + 60_000;
  let seen: number | null = null;
  while (Date.now() < until) {
    seen = await query(promUrl, q);
    if (seen !== null && seen >= REQUESTS) break;
    await sleep(500);
  }
  const up = await query(promUrl, 'up{job="conversation-service"}');
  log(`Prometheus says: ${q} = ${seen}; up = ${up}`);
  if (up !== 1) throw new Error(`the scrape target is not up (up = ${up}); see ${promLog}:\n${tail(promLog)}`);
  if (seen === null || seen < REQUESTS) throw new Error(`Prometheus does not have the counter (got ${seen}, want at least ${REQUESTS})`);
  const pool = await query(promUrl, 'sum(service_db_pool_connections{job="conversation-service"})');
  const cpu = await query(promUrl, 'process_cpu_user_seconds_total{job="conversation-service"}');
  if (pool === null || cpu === null) throw new Error(`Prometheus lacks the pool gauge (${pool}) or the process metrics (${cpu})`);

  // The exposition itself, linted: promtool exits 3 on lint problems (a gauge named *_total, a counter
  // without it, …) and 1 on a parse error; anything it prints is a problem, whatever its exit status.
  const scrape = await fetch(`${serviceUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const exposition = await scrape.text();
  if (scrape.status !== 200) throw new Error(`GET /metrics with the token answered ${scrape.status}`);
  const lint = spawnSync(PROMTOOL, ['check', 'metrics'], { input: exposition, encoding: 'utf8', timeout: 30_000 });
  const said = `${lint.stdout ?? ''}${lint.stderr ?? ''}`.trim();
  log(`promtool check metrics: exit ${lint.status}${said ? `\n${said}` : ', nothing to report'}`);
  if (lint.error) throw new Error(`promtool did not run: ${lint.error.message}`);
  if (lint.status !== 0 || said !== '') throw new Error(`promtool check metrics found problems in /metrics (exit ${lint.status}):\n${said}`);
  const families = (exposition.match(/^# TYPE /gm) ?? []).length;
  console.log(
    `PROMETHEUS_CHECK_OK ${JSON.stringify({ requests_counted: seen, up, pool_connections: pool, cpu_seconds: cpu, promtool_families_checked: families })}`,
  );
}

const deadline = setTimeout(() => {
  log(`timed out after ${TIMEOUT_S} s`);
  void stopAll().finally(() => process.exit(1));
}, TIMEOUT_S * 1000);

main().then(
  async () => {
    clearTimeout(deadline);
    await stopAll();
    process.exit(0);
  },
  async (e) => {
    clearTimeout(deadline);
    log(`FAILED: ${(e as Error).message}`);
    await stopAll();
    process.exit(1);
  },
);
