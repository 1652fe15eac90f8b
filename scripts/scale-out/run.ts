// `npm run scale-out`: the production topology with real parts, under load and faults.
//
//   one Postgres (embedded, fresh, in a temp dir; restarted once mid-run with pg_ctl)
//   three API processes (WORKERS=off) behind nginx (Debian's package) as the load balancer
//   one worker process (WORKERS=on: dispatcher and delivery worker; it also serves HTTP, not behind nginx)
//   a local webhook receiver (answers 200, now and then 500)
//
// It bootstraps a workspace with the CLI, runs a bounded mixed load through nginx
// while SIGKILLing and restarting processes (seeded times and targets) and
// restarting Postgres once, lets the worker drain, then verifies: every
// acknowledged write exactly once, seqs gapless, every due webhook delivery
// received, nothing stuck, and every 5xx in flight at a fault and cleared by a
// retry with the same Idempotency-Key. Prints the figures; exits 1 on any
// violation, 2 on a setup failure, 3 on the hard timeout. Everything it starts
// is stopped and its temp dir removed, whatever happens.
//
// Environment (all optional): SCALE_SEED (default 1), SCALE_CLIENTS (20),
// SCALE_LOAD_SECONDS (75), SCALE_KILLS (10), SCALE_TIMEOUT_SECONDS (480),
// SCALE_PG_STOP_MODE (fast | immediate), SCALE_KEEP=1 (keep the temp dir).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prng } from '../../bench/lib/events.js';
import { createDb, ensureDatabase } from '../../src/platform/db/database.js';
import { freePort, startEmbeddedPostgres, type EmbeddedCluster } from '../../src/platform/db/embedded-postgres.js';
import { LoadClient, runLoad, type RequestRecord, type Setup } from './load.js';
import { ensureNginx, killPostgres, Nginx, REPO_ROOT, serviceEnv, ServiceSlot, sleep, tailFile } from './procs.js';
import { WebhookReceiver } from './receiver.js';
import { verify, type Fault } from './verify.js';

const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  const v = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(v) && v >= 0 ? v : fallback;
};
const SEED = num('SCALE_SEED', 1);
const CLIENTS = num('SCALE_CLIENTS', 20);
const LOAD_S = num('SCALE_LOAD_SECONDS', 75);
const KILLS = num('SCALE_KILLS', 10);
const TIMEOUT_S = num('SCALE_TIMEOUT_SECONDS', 480);
const PG_MODE = process.env.SCALE_PG_STOP_MODE === 'immediate' ? 'immediate' : 'fast';
const KEEP = process.env.SCALE_KEEP === '1';
const API_PROCESSES = 3;
const DRAIN_TIMEOUT_MS = 120_000;

const t0 = Date.now();
const stamp = () => `+${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s`;
const log = (m: string) => console.log(`[scale-out ${stamp()}] ${m}`);

// ---- everything to tear down, in reverse order of creation ----
const cleanups: { what: string; fn: () => Promise<void> }[] = [];
let stopping = false;
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  stopping = true;
  cleaning ??= (async () => {
    for (const c of cleanups.reverse()) {
      try {
        await Promise.race([c.fn(), sleep(30_000).then(() => Promise.reject(new Error('timed out')))]);
      } catch (e) {
        console.error(`[scale-out] cleanup of ${c.what} failed: ${(e as Error).message}`);
      }
    }
  })();
  return cleaning;
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<any> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    const t = setTimeout(() => p.kill('SIGKILL'), 90_000);
    p.on('close', (code) => {
      clearTimeout(t);
      if (code !== 0) return reject(new Error(`cli ${args.join(' ')} exited ${code}\n${err}\n${out}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error(`cli printed no JSON: ${out}`));
      }
    });
  });
}

/** When every API process answers /readyz 200 again (polled every 100 ms, bounded): the service answers again. */
async function allReady(api: ServiceSlot[]): Promise<number> {
  const until = Date.now() + 60_000;
  const pending = new Set(api);
  while (pending.size > 0 && Date.now() < until) {
    for (const s of [...pending]) {
      const ok = await fetch(`${s.url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) pending.delete(s);
    }
    if (pending.size > 0) await sleep(100);
  }
  if (pending.size > 0) throw new Error(`not ready a minute after Postgres came back: ${[...pending].map((s) => s.name).join(', ')}`);
  return Date.now();
}

/** One setup request through nginx, retried like the load does; must answer `status`. */
async function setupCall(client: LoadClient, method: string, p: string, body: unknown, headers: Record<string, string>, status: number) {
  const rec: RequestRecord = { client: -1, kind: 'list', method, path: p, attempts: [], final: null, replayed: false };
  await client.send(rec, headers, body === undefined ? undefined : JSON.stringify(body));
  if (rec.final !== status) throw new Error(`${method} ${p} answered ${rec.final}: ${JSON.stringify(rec.body)}`);
  return rec;
}

async function main(): Promise<number> {
  log(`seed ${SEED}, ${CLIENTS} clients, ${LOAD_S} s of load, ${KILLS} kills, Postgres restart (${PG_MODE}), hard timeout ${TIMEOUT_S} s`);
  await ensureNginx(log);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cs-scale-'));
  // the postgres user (Postgres runs as it when we are root) and nginx's workers must traverse it
  await chmod(tmp, 0o711);
  cleanups.push({ what: 'temp dir', fn: async () => (KEEP ? log(`kept ${tmp}`) : rm(tmp, { recursive: true, force: true })) });
  log(`temp dir ${tmp}`);

  // ---- Postgres ----
  const pgHome = path.join(tmp, 'pg');
  const cluster: EmbeddedCluster = await startEmbeddedPostgres({ dataDir: pgHome, adoptOrphans: true, log: (m) => log(m) });
  cleanups.push({
    what: 'Postgres',
    fn: async () => {
      await cluster.stop();
      await killPostgres(path.join(pgHome, 'pg')); // a no-op when the stop worked
    },
  });
  await ensureDatabase(cluster.url('postgres'), 'scale');
  const databaseUrl = cluster.url('scale');
  const db = createDb(databaseUrl, { max: 4 });
  cleanups.push({ what: 'verification pool', fn: () => db.destroy() });

  // ---- receiver ----
  const receiver = new WebhookReceiver(prng(SEED * 7919), 0.03);
  await receiver.start();
  cleanups.push({ what: 'receiver', fn: () => receiver.close() });

  // ---- services: all four start at once on the empty database (concurrent migrations) ----
  const secretsKey = randomBytes(32).toString('base64url');
  const channelsSecret = randomBytes(32).toString('base64url');
  const common = {
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SERVICE_SECRETS_KEY: secretsKey,
    SERVICE_CHANNELS_SECRET: channelsSecret,
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    WEBHOOK_RETRY_BASE_SECONDS: '1',
    WEBHOOK_TIMEOUT_MS: '3000',
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  const slots: ServiceSlot[] = [];
  for (let i = 0; i < API_PROCESSES + 1; i++) {
    const role = i < API_PROCESSES ? 'api' : 'worker';
    const name = role === 'api' ? `api${i + 1}` : 'worker';
    const port = await freePort();
    slots.push(
      new ServiceSlot(
        name,
        role,
        port,
        serviceEnv({ ...common, PORT: String(port), WORKERS: role === 'api' ? 'off' : 'on', DATA_DIR: path.join(tmp, name) }),
        tmp,
      ),
    );
  }
  cleanups.push({ what: 'services', fn: async () => void (await Promise.all(slots.map((s) => s.stop()))) });
  const startedAll = Date.now();
  await Promise.all(slots.map((s) => s.start()));
  const migrations = (await db('knex_migrations').count({ n: '*' }))[0]!.n;
  const lockRows = (await db('knex_migrations_lock').select('is_locked')) as { is_locked: number }[];
  log(
    `4 processes started together on the empty database in ${Date.now() - startedAll} ms: ${migrations} migrations applied once, lock rows ${JSON.stringify(lockRows.map((r) => r.is_locked))}`,
  );
  if (lockRows.length !== 1 || lockRows[0]!.is_locked !== 0) throw new Error(`knex_migrations_lock is left as ${JSON.stringify(lockRows)}`);
  const api = slots.filter((s) => s.role === 'api');
  const worker = slots.find((s) => s.role === 'worker')!;

  // ---- nginx ----
  const nginx = new Nginx({ dir: path.join(tmp, 'nginx'), listenPort: await freePort(), upstreamPorts: api.map((s) => s.port) });
  await nginx.start();
  cleanups.push({ what: 'nginx', fn: () => nginx.stop() });
  log(`nginx on ${nginx.url} -> ${api.map((s) => s.port).join(', ')}; worker on ${worker.port}; receiver on ${receiver.port}`);

  // ---- bootstrap: workspace (CLI), session, key, channel, endpoint ----
  const client = new LoadClient(nginx.url, { maxAttempts: 400, maxMs: 150_000, attemptTimeoutMs: 20_000 });
  const runId = randomBytes(4).toString('hex');
  const email = `owner-${runId}@scale.example.com`;
  const password = 'correct horse battery staple';
  const ws = await cli(
    ['workspace', 'create', '--name', `Scale ${runId}`, '--owner-email', email, '--owner-password', password],
    serviceEnv({ DATABASE_URL: databaseUrl, SERVICE_SECRETS_KEY: secretsKey, LOG_LEVEL: 'warn', DATA_DIR: path.join(tmp, 'cli') }),
  );
  const tenant: string = ws.workspace_id;
  const session = await fetch(`${nginx.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (session.status !== 201) throw new Error(`sign-in answered ${session.status}: ${await session.text()}`);
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
  const asOwner = { cookie, 'x-service-workspace': tenant };
  const key = await setupCall(
    client,
    'POST',
    '/api/keys',
    { name: 'scale-out', scopes: ['conversations:read', 'conversations:write', 'settings:read', 'settings:write', 'events:read'] },
    asOwner,
    201,
  );
  const apiKey: string = key.body.secret;
  const auth = { authorization: `Bearer ${apiKey}` };
  const channelSecret = randomBytes(18).toString('base64url');
  const channel = await setupCall(
    client,
    'POST',
    '/api/channels',
    { kind: 'api', name: `Scale bridge ${runId}`, default_team_id: null, webhook_secret: channelSecret },
    { ...auth, 'idempotency-key': `channel-${runId}` },
    201,
  );
  const hook = await setupCall(
    client,
    'POST',
    '/api/webhooks',
    { url: receiver.url, event_names: [], description: 'scale-out receiver' },
    { ...auth, 'idempotency-key': `hook-${runId}` },
    201,
  );
  receiver.secret = hook.body.secret;
  const endpointSeq = Number((await db('events').where({ tenant_id: tenant, type: 'webhook_endpoint.created', aggregate_id: hook.body.id }).first('seq'))?.seq);
  if (!Number.isInteger(endpointSeq)) throw new Error('the endpoint creation event is not in the log');
  const setup: Setup = { tenant, apiKey, channelId: channel.body.id, channelSecret };
  log(`workspace ${tenant}, channel ${setup.channelId}, endpoint ${hook.body.id} (created at seq ${endpointSeq})`);

  // ---- load and faults ----
  const rnd = prng(SEED);
  const loadStart = Date.now();
  let loadUntil = loadStart + LOAD_S * 1000;
  let faultsDone = false;
  const faults: Fault[] = [];
  /** when Postgres accepted connections again after its restart */
  let pgBack: number | null = null;
  const targets: ServiceSlot[] = [];
  // Every API process and the worker at least twice when there are enough kills, the rest at random.
  for (let i = 0; i < KILLS; i++) targets.push(i < 2 * slots.length ? slots[i % slots.length]! : slots[Math.floor(rnd() * slots.length)]!);
  for (let i = targets.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [targets[i], targets[j]] = [targets[j]!, targets[i]!];
  }
  const pgAfter = Math.floor(KILLS / 2); // the Postgres restart comes after this many kills
  const faultCount = KILLS + 1;
  const firstAt = 6_000;
  const span = LOAD_S * 1000 - firstAt - 10_000;
  const schedule = Array.from({ length: faultCount }, (_, i) => loadStart + firstAt + (span * (i + 0.2 + 0.6 * rnd())) / faultCount);

  const faultLoop = (async () => {
    let k = 0;
    for (let i = 0; i < faultCount; i++) {
      const wait = schedule[i]! - Date.now();
      if (wait > 0) await sleep(wait);
      if (i === pgAfter) {
        // The fault window runs from the moment the stop is issued (a slow machine disconnects clients well
        // before pg_ctl returns) to the moment every API process answers ready again: what a client lives through.
        log(`Postgres: pg_ctl stop -m ${PG_MODE}, start on the same data dir and port ${cluster.port}`);
        const issuedAt = Date.now();
        await cluster.halt(PG_MODE);
        const stoppedAt = Date.now();
        await sleep(1500 + Math.floor(rnd() * 1500));
        // torn down meanwhile (hard timeout, signal): do not start a Postgres nobody will stop
        if (stopping) throw new Error('Postgres restart abandoned: the run is stopping');
        await cluster.resume();
        const backAt = Date.now();
        const answeredAt = await allReady(api);
        pgBack = backAt;
        faults.push({ kind: 'pg-restart', target: 'postgres', role: 'postgres', at: issuedAt, readyAt: answeredAt });
        log(
          `Postgres stopped ${stoppedAt - issuedAt} ms after the stop was issued, down ${backAt - stoppedAt} ms; every API process ready ${answeredAt - backAt} ms after it was back`,
        );
        continue;
      }
      const s = targets[k++]!;
      const at = Date.now();
      await s.kill();
      log(`SIGKILL ${s.name} (pid gone), restarting`);
      await sleep(200 + Math.floor(rnd() * 1300));
      await s.start();
      faults.push({ kind: 'kill', target: s.name, role: s.role, at, readyAt: Date.now() });
      log(`${s.name} back after ${Date.now() - at} ms`);
    }
    // all faults happen under load: the load goes on while faults remain (restarts are slow on a loaded
    // machine, and a fault after the load stopped would test nothing), and 3 s past the last one
    loadUntil = Math.max(loadUntil, Date.now() + 3_000);
    faultsDone = true;
  })();

  const records: RequestRecord[] = [];
  const progress = setInterval(() => log(`load: ${records.length} requests, ${receiver.deliveries.length} deliveries received`), 10_000);
  const loadDone = runLoad(
    client,
    setup,
    { clients: CLIENTS, until: () => (faultsDone ? loadUntil : Infinity), rnd: (c) => prng(SEED * 1000 + c + 1), runId },
    records,
  );
  await faultLoop;
  await loadDone;
  clearInterval(progress);
  const loadMs = Date.now() - loadStart;
  log(`load stopped after ${(loadMs / 1000).toFixed(1)} s: ${records.length} requests; ${faults.length} faults`);

  // ---- drain: nothing pending or leased, the dispatcher at the head, the receiver has every due seq ----
  const drainStart = Date.now();
  let drained = false;
  let state = '';
  while (Date.now() - drainStart < DRAIN_TIMEOUT_MS) {
    const pending = Number(((await db('webhook_deliveries').where({ state: 'pending' }).count({ n: '*' })) as { n: string }[])[0]!.n);
    const headPos = (await db.raw(`SELECT tx_id::text || ':' || position::text AS p FROM events ORDER BY tx_id DESC, position DESC LIMIT 1`)).rows[0]?.p;
    const checkpoint = (await db('subscription_checkpoints').where({ name: 'webhook_dispatcher' }).first('position'))?.position;
    const head = Number((await db('event_heads').where({ tenant_id: tenant }).first('last_seq'))?.last_seq);
    const got = receiver.acceptedSeqs(tenant);
    let missing = 0;
    for (let s = endpointSeq + 1; s <= head; s++) if (!got.has(s)) missing++;
    state = `pending ${pending}, dispatcher ${checkpoint === headPos ? 'at the head' : `at ${checkpoint} (head ${headPos})`}, ${missing} due seqs not yet received`;
    if (pending === 0 && checkpoint === headPos && missing === 0) {
      drained = true;
      break;
    }
    await sleep(500);
  }
  log(`drain ${drained ? 'complete' : 'TIMED OUT'} after ${Date.now() - drainStart} ms: ${state}`);

  // ---- verify ----
  const { figures, violations } = await verify(db, tenant, records, receiver, endpointSeq, faults, secretsKey, { t0, pgBack, loadStart, loadEnd: loadUntil });
  if (!drained) violations.unshift(`the worker did not drain within ${DRAIN_TIMEOUT_MS} ms: ${state}`);

  const kills = faults.filter((f) => f.kind === 'kill');
  const summary = {
    seed: SEED,
    duration_s: Math.round((Date.now() - t0) / 1000),
    load_s: Math.round(loadMs / 1000),
    kills: kills.length,
    kills_by_target: Object.fromEntries(slots.map((s) => [s.name, s.kills])),
    postgres_restarts: faults.filter((f) => f.kind === 'pg-restart').length,
    requests: figures.requests,
    requests_by_kind: figures.byKind,
    writes: figures.writes,
    acknowledged_writes: figures.acknowledgedWrites,
    replayed_answers: figures.replayedAnswers,
    attempts: figures.attempts,
    retried_requests: figures.retriedRequests,
    failed_attempts_5xx: figures.failedAttempts5xx,
    connection_errors: figures.connectionErrors,
    key_in_flight_409s: figures.inFlightConflicts,
    failures_not_at_a_fault: figures.unexplainedFailures,
    answers_500: figures.answers500,
    answers_503: figures.answers503,
    longest_write_stall_ms: figures.longestWriteStall.ms,
    longest_write_stall_at: figures.longestWriteStall.at,
    writes_flowing_after_pg_back_ms: figures.writesResumedAfterPgMs,
    write_stall_at_pg_restart_ms: figures.pgWriteStallMs,
    recovered_after_5xx: figures.recoveredRequests,
    recovered_with_same_key: figures.recoveredWithKey,
    lost_answers_rebuilt: figures.answeredFromEarlierAttempt,
    events: figures.events,
    deliveries_due: figures.expectedDeliveries,
    deliveries_received: figures.deliveriesReceived,
    deliveries_answered_500: figures.deliveriesAnswered500,
    distinct_seqs_delivered: figures.distinctSeqsDelivered,
    losses: figures.losses,
    duplicates: figures.duplicates,
    delivery_states: figures.deliveryStates,
    violations: violations.length,
  };
  console.log('\n=== scale-out summary ===');
  for (const [k, v] of Object.entries(summary)) console.log(`  ${k.padEnd(26)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  console.log(`SCALE_OUT_RESULT ${JSON.stringify(summary)}`);
  if (violations.length > 0) {
    console.log(`\n${violations.length} violation(s):`);
    for (const m of violations.slice(0, 50)) console.log(`  - ${m}`);
    for (const s of slots) console.log(`\n--- ${s.name} log (tail) ---\n${tailFile(s.logFile, 20)}`);
    return 1;
  }
  console.log('\nOK: no acknowledged write lost or doubled, seqs gapless, every due delivery received, nothing stuck.');
  return 0;
}

const hardTimeout = setTimeout(() => {
  console.error(`[scale-out] hard timeout: ${TIMEOUT_S} s passed; stopping everything`);
  void cleanup().finally(() => process.exit(3));
}, TIMEOUT_S * 1000);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    console.error(`[scale-out] ${sig}: stopping everything`);
    void cleanup().finally(() => process.exit(130));
  });
}

main().then(
  async (code) => {
    await cleanup();
    clearTimeout(hardTimeout);
    process.exit(code);
  },
  async (e) => {
    console.error(`[scale-out] failed: ${(e as Error).stack ?? e}`);
    await cleanup();
    clearTimeout(hardTimeout);
    process.exit(2);
  },
);
