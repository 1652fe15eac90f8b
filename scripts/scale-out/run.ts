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
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prng } from '../../bench/lib/events.js';
import { createDb, ensureDatabase } from '../../src/platform/db/database.js';
import { freePort, startEmbeddedPostgres, type EmbeddedCluster } from '../../src/platform/db/embedded-postgres.js';
import { LoadClient, runLoad, type RequestRecord } from './load.js';
import { ensureNginx, killPostgres, Nginx, ServiceSlot, sleep, tailFile } from './procs.js';
import { StreamClient, streamViolations } from './stream.js';
import { WebhookReceiver } from './receiver.js';
import { postgresLog } from './log-view.js';
import { allReady, bootstrapTenant, drain, envNumber, serviceSlots, sharedSecrets, Teardown } from './setup.js';
import { verify, type Fault } from './verify.js';

const SEED = envNumber('SCALE_SEED', 1);
const CLIENTS = envNumber('SCALE_CLIENTS', 20);
const LOAD_S = envNumber('SCALE_LOAD_SECONDS', 75);
const KILLS = envNumber('SCALE_KILLS', 10);
const TIMEOUT_S = envNumber('SCALE_TIMEOUT_SECONDS', 480);
const PG_MODE = process.env.SCALE_PG_STOP_MODE === 'immediate' ? 'immediate' : 'fast';
const KEEP = process.env.SCALE_KEEP === '1';
const API_PROCESSES = 3;
const DRAIN_TIMEOUT_MS = 120_000;

const t0 = Date.now();
const stamp = () => `+${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s`;
const log = (m: string) => console.log(`[scale-out ${stamp()}] ${m}`);

// ---- everything to tear down, in reverse order of creation ----
const teardown = new Teardown('scale-out');

async function main(): Promise<number> {
  log(`seed ${SEED}, ${CLIENTS} clients, ${LOAD_S} s of load, ${KILLS} kills, Postgres restart (${PG_MODE}), hard timeout ${TIMEOUT_S} s`);
  await ensureNginx(log);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cs-scale-'));
  // the postgres user (Postgres runs as it when we are root) and nginx's workers must traverse it
  await chmod(tmp, 0o711);
  teardown.add('temp dir', async () => (KEEP ? log(`kept ${tmp}`) : rm(tmp, { recursive: true, force: true })));
  log(`temp dir ${tmp}`);

  // ---- Postgres ----
  const pgHome = path.join(tmp, 'pg');
  const cluster: EmbeddedCluster = await startEmbeddedPostgres({ dataDir: pgHome, adoptOrphans: true, log: (m) => log(m) });
  teardown.add('Postgres', async () => {
    await cluster.stop();
    await killPostgres(path.join(pgHome, 'pg')); // a no-op when the stop worked
  });
  await ensureDatabase(cluster.url('postgres'), 'scale');
  const databaseUrl = cluster.url('scale');
  const db = createDb(databaseUrl, { max: 4 });
  teardown.add('verification pool', () => db.destroy());

  // ---- receiver ----
  const receiver = new WebhookReceiver(prng(SEED * 7919), 0.03);
  await receiver.start();
  teardown.add('receiver', () => receiver.close());

  // ---- services: all four start at once on the empty database (concurrent migrations) ----
  const shared = sharedSecrets(databaseUrl);
  const { secretsKey } = shared;
  const slots: ServiceSlot[] = await serviceSlots(tmp, shared, API_PROCESSES);
  teardown.add('services', async () => void (await Promise.all(slots.map((s) => s.stop()))));
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
  teardown.add('nginx', () => nginx.stop());
  log(`nginx on ${nginx.url} -> ${api.map((s) => s.port).join(', ')}; worker on ${worker.port}; receiver on ${receiver.port}`);

  // ---- bootstrap: workspace (CLI), session, key, channel, endpoint ----
  const client = new LoadClient(nginx.url, { maxAttempts: 400, maxMs: 150_000, attemptTimeoutMs: 20_000 });
  const { setup, endpointSeq, endpointId, runId } = await bootstrapTenant(client, nginx.url, shared, postgresLog(db), receiver, path.join(tmp, 'cli'), 'Scale');
  const tenant = setup.tenant;
  log(`workspace ${tenant}, channel ${setup.channelId}, endpoint ${endpointId} (created at seq ${endpointSeq})`);

  // ---- a live stream, read through the balancer all along (it reconnects with Last-Event-ID after each kill) ----
  const stream = new StreamClient(nginx.url, setup.apiKey);
  stream.start();

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
        if (teardown.stopping) throw new Error('Postgres restart abandoned: the run is stopping');
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
  const { drained, state, ms: drainMs } = await drain(db, postgresLog(db), tenant, receiver, endpointSeq, DRAIN_TIMEOUT_MS);
  log(`drain ${drained ? 'complete' : 'TIMED OUT'} after ${drainMs} ms: ${state}`);

  // ---- verify ----
  const { figures, violations } = await verify(db, postgresLog(db), tenant, records, receiver, endpointSeq, faults, secretsKey, {
    t0,
    pgBack,
    loadStart,
    loadEnd: loadUntil,
  });
  if (!drained) violations.unshift(`the worker did not drain within ${DRAIN_TIMEOUT_MS} ms: ${state}`);
  const head = await postgresLog(db).head(tenant);
  const reachedHead = await stream.finish(head, DRAIN_TIMEOUT_MS);
  violations.push(...streamViolations(stream.seqs, head, reachedHead));
  log(`event stream: ${stream.seqs.length} events over ${stream.connections} connections (${stream.refused} refused), head ${head}`);

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
    stream_events: stream.seqs.length,
    stream_connections: stream.connections,
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

teardown.main(main, TIMEOUT_S);
