// `npm run failover`: the service on a highly available Postgres, under load, losing its primary.
// (`npm run failover -- --eventstoredb`: the log on a running EventStoreDB cluster losing its leader, with the
// same checks: scripts/failover/eventstoredb.ts.)
//
//   etcd (three members), two Patroni-managed Postgres nodes (run as postgres, synchronous mode,
//   pg_rewind), HAProxy in front (OPTIONS /primary): deploy/'s configuration files
//   three API processes (WORKERS=off) behind nginx, one worker (WORKERS=on); DATABASE_URL through HAProxy
//   a local webhook receiver (answers 200, now and then 500)
//
// Under the scale-out run's mixed load (clients retry with their Idempotency-Key), it SIGKILLs
// the primary, its postmaster and its patroni together, after holding back its stream to the
// standby for a second (a network hiccup as the machine dies; an API process dies too during the
// first failover), waits for the standby to take over, starts the lost node again and waits until it
// has rejoined through pg_rewind as the synchronous standby, then kills the new primary and starts it
// again too, waiting until it has rejoined the same way. It lets the worker drain, then checks: every acknowledged write in the log exactly
// once (acknowledged ⊆ stored: a write cut off mid-flight may or may not be there), seqs
// gapless, every due delivery received, no Idempotency-Key left in flight and the answers
// replayed, the read models equal to a rebuild, no 5xx outside a failover (or API kill) window.
// Prints FAILOVER_RESULT with the figures; exits 1 on any violation, 2 on a setup failure, 3 on
// the hard timeout. Everything it starts is stopped and its temp dir removed, whatever happens.
//
// Environment (all optional): FAILOVER_SEED (1), FAILOVER_CLIENTS (12), FAILOVER_KILLS (2 primaries
// lost), FAILOVER_HOLD_MS (1000: the stream to the standby held back before each kill; 0: none),
// FAILOVER_TIMEOUT_SECONDS (420), FAILOVER_SYNC=off (the negative control: synchronous_mode
// off, set with patronictl edit-config; it can lose acknowledged writes), FAILOVER_KEEP=1 (keep the temp dir).
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prng } from '../../bench/lib/events.js';
import { createDb } from '../../src/platform/db/database.js';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { LoadClient } from '../scale-out/load.js';
import { postgresLog } from '../scale-out/log-view.js';
import { ensureNginx, Nginx, ServiceSlot, sleep, tailFile } from '../scale-out/procs.js';
import { WebhookReceiver } from '../scale-out/receiver.js';
import { allReady, bootstrapTenant, envNumber, loadThrough, serviceSlots, sharedSecrets, Teardown } from '../scale-out/setup.js';
import type { Fault } from '../scale-out/verify.js';
import { outages, report, settleAndCheck } from './checks.js';
import { ensureClusterPackages, PatroniCluster, type PatroniNode } from './cluster.js';

const SEED = envNumber('FAILOVER_SEED', 1);
const CLIENTS = envNumber('FAILOVER_CLIENTS', 12);
const KILLS = Math.max(1, envNumber('FAILOVER_KILLS', 2));
const TIMEOUT_S = envNumber('FAILOVER_TIMEOUT_SECONDS', 420);
const SYNC = process.env.FAILOVER_SYNC !== 'off';
const KEEP = process.env.FAILOVER_KEEP === '1';
const HOLD_MS = envNumber('FAILOVER_HOLD_MS', 1_000);
const API_PROCESSES = 3;
/** load before the first kill, and between a node's rejoin and the next kill */
const WARM_MS = 8_000;
const BETWEEN_MS = 5_000;
const PROMOTE_TIMEOUT_MS = 60_000;
const REJOIN_TIMEOUT_MS = 120_000;

const t0 = Date.now();
const stamp = () => `+${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s`;
const log = (m: string) => console.log(`[failover ${stamp()}] ${m}`);
const teardown = new Teardown('failover');

interface Rejoin {
  node: string;
  seconds: number;
  /** the node ran pg_rewind on its way back (its log says so) */
  pg_rewind: boolean;
  as: 'synchronous standby' | 'streaming replica' | 'did not rejoin';
}

async function main(): Promise<number> {
  log(
    `seed ${SEED}, ${CLIENTS} clients, ${KILLS} primaries lost (stream held ${HOLD_MS} ms before each), synchronous_mode ${SYNC ? 'on' : 'OFF (negative control)'}, hard timeout ${TIMEOUT_S} s`,
  );
  await ensureClusterPackages(log);
  await ensureNginx(log);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cs-failover-'));
  // the postgres user (Patroni and Postgres run as it) and nginx's workers must traverse it
  await chmod(tmp, 0o711);
  teardown.add('temp dir', async () => (KEEP ? log(`kept ${tmp}`) : rm(tmp, { recursive: true, force: true })));
  log(`temp dir ${tmp}`);

  // ---- the cluster: etcd, two Patroni nodes, HAProxy ----
  const cluster = new PatroniCluster({ dir: tmp, log, synchronous: SYNC });
  teardown.add('Patroni cluster', () => cluster.stop());
  await cluster.start();

  // The service's own user and database, once, through HAProxy (replication carries them to every node).
  const password = `svc-${SEED}-${t0.toString(36)}`;
  const admin = new pg.Client({ connectionString: cluster.superuserUrl() });
  admin.on('error', () => undefined);
  await admin.connect();
  await admin.query(`CREATE ROLE conversation_service LOGIN CREATEROLE PASSWORD '${password}'`);
  await admin.query('CREATE DATABASE conversation_service OWNER conversation_service');
  await admin.end();
  const databaseUrl = `postgres://conversation_service:${password}@127.0.0.1:${cluster.port}/conversation_service`;
  const db = createDb(databaseUrl, { max: 4 });
  teardown.add('verification pool', () => db.destroy());

  const receiver = new WebhookReceiver(prng(SEED * 7919), 0.03);
  await receiver.start();
  teardown.add('receiver', () => receiver.close());

  // ---- services: all four start at once through HAProxy ----
  const shared = sharedSecrets(databaseUrl);
  const slots: ServiceSlot[] = await serviceSlots(tmp, shared, API_PROCESSES);
  teardown.add('services', async () => void (await Promise.all(slots.map((s) => s.stop()))));
  const startedAll = Date.now();
  await Promise.all(slots.map((s) => s.start()));
  log(`4 service processes ready through HAProxy in ${Date.now() - startedAll} ms`);
  const api = slots.filter((s) => s.role === 'api');
  const worker = slots.find((s) => s.role === 'worker')!;
  const nginx = new Nginx({ dir: path.join(tmp, 'nginx'), listenPort: await freePort(), upstreamPorts: api.map((s) => s.port) });
  await nginx.start();
  teardown.add('nginx', () => nginx.stop());
  log(`nginx on ${nginx.url} -> ${api.map((s) => s.port).join(', ')}; worker on ${worker.port}; receiver on ${receiver.port}`);

  const client = new LoadClient(nginx.url, { maxAttempts: 400, maxMs: 150_000, attemptTimeoutMs: 20_000 });
  const log_ = postgresLog(db);
  const { setup, endpointSeq, endpointId, runId } = await bootstrapTenant(client, nginx.url, shared, log_, receiver, path.join(tmp, 'cli'), 'Failover');
  const tenant = setup.tenant;
  log(`workspace ${tenant}, channel ${setup.channelId}, endpoint ${endpointId} (created at seq ${endpointSeq})`);

  // ---- load and faults ----
  const faults: Fault[] = [];
  /** when each primary was SIGKILLed (its fault began earlier, with the hiccup) */
  const kills: { target: string; at: number }[] = [];
  const rejoins: Rejoin[] = [];
  const promotions: { from: string; to: string; seconds: number }[] = [];
  const faultProblems: string[] = [];

  const faultLoop = async () => {
    await sleep(WARM_MS);
    for (let i = 0; i < KILLS; i++) {
      if (teardown.stopping) throw new Error('faults abandoned: the run is stopping');
      const victim = await cluster.leader();
      if (!victim) throw new Error('no leader to kill');
      const heir = cluster.nodes.find((n) => n !== victim)!;
      // The fault begins with the hiccup (commits wait for the standby meanwhile); the outage is counted from the kill.
      const { heldWalsenders, heldAt, killedAt: at } = await victim.kill({ holdStreamMs: HOLD_MS });
      kills.push({ target: victim.name, at });
      log(
        `SIGKILL ${victim.name}: its patroni and its postmaster (primary #${i + 1})${heldWalsenders > 0 ? `, its stream to the standby held back ${HOLD_MS} ms first` : ''}`,
      );
      // During the first failover an API process dies too, and is started again at once, as a
      // supervisor would: it waits for the new primary by itself.
      let apiBack: Promise<void> = Promise.resolve();
      let restarting: ServiceSlot | null = null;
      if (i === 0) {
        await sleep(1_000);
        const s = api[0]!;
        restarting = s;
        const killedAt = Date.now();
        await s.kill();
        log(`SIGKILL ${s.name} while there is no primary; starting it again`);
        apiBack = s.start(150_000).then(() => {
          faults.push({ kind: 'kill', target: s.name, role: 'api', at: killedAt, readyAt: Date.now() });
          log(`${s.name} back after ${Date.now() - killedAt} ms`);
        });
      }
      const promoted = await cluster.waitPrimary(heir, PROMOTE_TIMEOUT_MS);
      if (!promoted) throw new Error(`${heir.name} was not promoted within ${PROMOTE_TIMEOUT_MS} ms\n${tailFile(heir.logFile)}`);
      promotions.push({ from: victim.name, to: heir.name, seconds: (Date.now() - at) / 1000 });
      log(`${heir.name} is the primary ${Date.now() - at} ms after the kill`);
      // The failover's window ends when the API processes that ran through it answer ready again (the
      // one started again has a window of its own: nginx sends nothing to it until it listens).
      const readyAt = await allReady(
        api.filter((s) => s !== restarting),
        'the new primary was promoted',
      );
      faults.push({ kind: 'failover', target: victim.name, role: 'postgres', at: heldAt, readyAt });
      log(`every API process ready ${readyAt - at} ms after the kill`);
      await apiBack;

      // The lost node comes back: crash recovery, pg_rewind onto the new timeline, then the standby.
      const logFrom = victim.logSize();
      const restartAt = Date.now();
      await victim.start();
      const back = await cluster.rejoined(victim, REJOIN_TIMEOUT_MS);
      const rewound = /pg_rewind exit code=0/.test(victim.logSince(logFrom));
      const as = !back ? 'did not rejoin' : SYNC ? 'synchronous standby' : 'streaming replica';
      rejoins.push({ node: victim.name, seconds: (Date.now() - restartAt) / 1000, pg_rewind: rewound, as });
      log(
        `${victim.name} ${back ? `rejoined as the ${as}` : 'DID NOT REJOIN'} ${Date.now() - restartAt} ms after its restart${rewound ? ', through pg_rewind' : ''}`,
      );
      if (!back) faultProblems.push(`${victim.name} did not rejoin as the ${SYNC ? 'synchronous standby' : 'replica'} within ${REJOIN_TIMEOUT_MS} ms`);
      // Every lost node comes back, the last one too (as an operator brings it back): the run ends with both.
      if (i < KILLS - 1) await sleep(BETWEEN_MS);
    }
  };

  const { records, loadStart, loadEnd } = await loadThrough(
    client,
    setup,
    { clients: CLIENTS, seed: SEED, runId, tailMs: 3_000, say: log, receiver },
    faultLoop,
  );
  const loadMs = Date.now() - loadStart;
  log(`load stopped after ${(loadMs / 1000).toFixed(1)} s: ${records.length} requests; ${faults.length} faults`);

  // ---- checks ----
  const { figures, violations, keysLeftInFlight, replaysChecked, readModelsEqual } = await settleAndCheck({
    db,
    log: log_,
    tenant,
    records,
    receiver,
    endpointSeq,
    faults,
    shared,
    timeline: { t0, pgBack: null, loadStart, loadEnd },
    base: nginx.url,
    tmp,
    say: log,
  });
  violations.push(...faultProblems);

  const outs = outages(records, kills);
  const result = {
    synchronous_mode: SYNC,
    seed: SEED,
    stream_held_ms: HOLD_MS,
    duration_s: Math.round((Date.now() - t0) / 1000),
    load_s: Math.round(loadMs / 1000),
    kills: {
      primaries: faults.filter((f) => f.kind === 'failover').length,
      api_processes: faults.filter((f) => f.kind === 'kill').length,
      by_node: Object.fromEntries(cluster.nodes.map((n: PatroniNode) => [n.name, n.kills])),
    },
    outages_s: outs.map((o) => o.seconds),
    promotions,
    rejoins,
    requests: figures.requests,
    writes: figures.writes,
    acknowledged_writes: figures.acknowledgedWrites,
    lost: figures.acknowledgedLost,
    duplicates: figures.acknowledgedDuplicated,
    answers_503: figures.answers503,
    answers_500: figures.answers500,
    failures_outside_a_fault: figures.unexplainedFailures,
    recovered_with_same_key: figures.recoveredWithKey,
    keys_left_in_flight: keysLeftInFlight,
    replays_checked: replaysChecked,
    read_models_equal_rebuild: readModelsEqual,
    events: figures.events,
    deliveries_due: figures.expectedDeliveries,
    deliveries_missing: figures.losses,
    violations: violations.length,
  };
  return report(
    result,
    violations,
    [...slots.map((s) => ({ name: s.name, file: s.logFile })), ...cluster.nodes.map((n) => ({ name: `${n.name} (Patroni)`, file: n.logFile }))],
    `${result.kills.primaries} primaries lost under load; no acknowledged write lost or doubled, seqs gapless, every due delivery received, keys settled and replayed, read models equal a rebuild.`,
  );
}

// `npm run failover -- --eventstoredb`: the same checks with the log on a running EventStoreDB cluster whose leader is lost.
if (process.argv.includes('--eventstoredb')) await import('./eventstoredb.js');
else teardown.main(main, TIMEOUT_S);
