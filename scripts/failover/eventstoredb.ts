// `npm run failover -- --eventstoredb`: the failover run with the service's log on a running EventStoreDB
// cluster, whose leader is lost (issue 46, "lose the leader"). What it sets up, beside the cluster:
//
//   one Postgres (embedded, fresh, in a temp dir) for the read models, keys, deliveries and the adapter's id index
//   three API processes (WORKERS=off) behind nginx, one worker (WORKERS=on), all with EVENTSTORE_URL and a
//     stream prefix of the run's own (failover.<run>-), so earlier runs' streams on the same cluster are never read
//   a local webhook receiver (answers 200, now and then 500)
//
// Under the scale-out run's mixed load (clients retry with their Idempotency-Key), it finds the leader from
// the nodes' gossip, SIGKILLs it, waits for the others to elect a new one and for every API process to answer
// ready again (the fault window), starts the killed node again with its own start command and waits until
// it is a follower again (starting it once more if it stops itself to truncate its log), and then does the
// same to the next leader: FAILOVER_KILLS leaders in all (2). Then the failover run's checks
// (checks.ts, settleAndCheck), on the log read through the service's own EventStoreDB adapter: every
// acknowledged write in the log exactly once, seqs gapless, every due delivery received, no Idempotency-Key
// left in flight and the answers replayed, the read models equal to a rebuild from the log, no 5xx outside a
// fault window; and one of its own: every node's copy of the workspace's stream holds exactly those events.
// Each outage is measured two ways: from the kill to the end of the longest silence between acknowledged
// writes (as the Patroni run), and from the first write that failed or stalled (over 2 s) to the first write
// sent after it that was acknowledged. Prints FAILOVER_RESULT with the figures; exits 1 on any violation, 2 on
// a setup failure, 3 on the hard timeout. Everything it started is stopped and its temp dir removed whatever
// happens; the cluster is left running, a node it killed started again.
//
// The cluster (required; scripts/failover/esdb-nodes.ts says more):
//   EVENTSTORE_URL              the service's connection string, e.g.
//                               esdb://127.0.0.1:2113,127.0.0.1:2123,127.0.0.1:2133?tls=false
//   FAILOVER_ESDB_NODES         every node's HTTP endpoint: http://127.0.0.1:2113,http://127.0.0.1:2123,http://127.0.0.1:2133
//   FAILOVER_ESDB_START_<n>     per node (1-based, FAILOVER_ESDB_NODES' order), the shell command that starts it again
//                               on its own data (run without the run's EVENTSTORE_* variables, which the server
//                               would take for its own settings); the kill is SIGKILL to the process listening on
//                               the node's port
// The nodes keep their log on disk (not --mem-db): a node started again must come back with its log.
//
// Optional: FAILOVER_SEED (1), FAILOVER_CLIENTS (12), FAILOVER_KILLS (2 leaders lost),
// FAILOVER_ESDB_REJOIN_SECONDS (180: how long a restarted node has to be a follower again),
// FAILOVER_TIMEOUT_SECONDS (900), FAILOVER_KEEP=1 (keep the temp dir).
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { prng } from '../../bench/lib/events.js';
import { createDb, ensureDatabase } from '../../src/platform/db/database.js';
import { freePort, startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.js';
import { LoadClient } from '../scale-out/load.js';
import { eventStoreDbLog } from '../scale-out/log-view.js';
import { ensureNginx, killPostgres, Nginx, ServiceSlot, sleep } from '../scale-out/procs.js';
import { WebhookReceiver } from '../scale-out/receiver.js';
import { allReady, bootstrapTenant, envNumber, loadThrough, serviceSlots, sharedSecrets, Teardown } from '../scale-out/setup.js';
import type { Fault } from '../scale-out/verify.js';
import { outages, report, settleAndCheck, writeOutages } from './checks.js';
import { EsdbCluster, type EsdbNode } from './esdb-nodes.js';

const SEED = envNumber('FAILOVER_SEED', 1);
const CLIENTS = envNumber('FAILOVER_CLIENTS', 12);
const KILLS = Math.max(1, envNumber('FAILOVER_KILLS', 2));
const TIMEOUT_S = envNumber('FAILOVER_TIMEOUT_SECONDS', 900);
const KEEP = process.env.FAILOVER_KEEP === '1';
const API_PROCESSES = 3;
/** load before the first kill, and between a node's rejoin and the next kill */
const WARM_MS = 8_000;
const BETWEEN_MS = 5_000;
const ELECTION_TIMEOUT_MS = 60_000;
const REJOIN_TIMEOUT_MS = envNumber('FAILOVER_ESDB_REJOIN_SECONDS', 180) * 1000;
/** a write running longer than this after a kill counts as the outage's start (the machine's normal latency is well below) */
const SLOW_WRITE_MS = 2_000;

const t0 = Date.now();
const stamp = () => `+${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s`;
const log = (m: string) => console.log(`[failover/esdb ${stamp()}] ${m}`);
const teardown = new Teardown('failover/esdb');

async function main(): Promise<number> {
  const url = process.env.EVENTSTORE_URL?.trim();
  if (!url) throw new Error('EVENTSTORE_URL missing: the connection string of the running cluster (see scripts/failover/eventstoredb.ts)');
  log(`seed ${SEED}, ${CLIENTS} clients, ${KILLS} leaders lost, hard timeout ${TIMEOUT_S} s; log on ${url}`);

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'cs-failover-esdb-'));
  // the postgres user (Postgres runs as it when we are root) and nginx's workers must traverse it
  await chmod(tmp, 0o711);
  teardown.add('temp dir', async () => (KEEP ? log(`kept ${tmp}`) : rm(tmp, { recursive: true, force: true })));
  log(`temp dir ${tmp}`);

  // ---- the cluster as found: every node up, one leader ----
  const cluster = EsdbCluster.fromEnv(tmp);
  const first = await cluster.waitLeader(null, 30_000);
  if (!first) throw new Error(`no leader agreed on by the nodes of FAILOVER_ESDB_NODES within 30 s: ${await cluster.states()}`);
  const version = await cluster.version();
  const states = await cluster.states();
  const followers = await Promise.all(cluster.nodes.filter((n) => n !== first).map((n) => cluster.isFollower(n, first)));
  if (!followers.every(Boolean)) throw new Error(`every node must be up before the run, one leader and followers: ${states}`);
  log(`EventStoreDB ${version ?? '(version unknown)'}: ${states}`);
  // A run that fails half-way still leaves the cluster whole: a node it killed and did not bring back is started.
  teardown.add('killed nodes', async () => {
    for (const n of cluster.nodes) {
      if (n.kills > 0 && n.pids().length === 0) {
        log(`${n.label} is down: starting it again`);
        n.start();
      }
    }
  });

  await ensureNginx(log);

  // ---- Postgres for everything beside the log ----
  const pgHome = path.join(tmp, 'pg');
  const pgCluster = await startEmbeddedPostgres({ dataDir: pgHome, adoptOrphans: true, log: (m) => log(m) });
  teardown.add('Postgres', async () => {
    await pgCluster.stop();
    await killPostgres(path.join(pgHome, 'pg')); // a no-op when the stop worked
  });
  await ensureDatabase(pgCluster.url('postgres'), 'failover');
  const databaseUrl = pgCluster.url('failover');
  const db = createDb(databaseUrl, { max: 4 });
  teardown.add('verification pool', () => db.destroy());

  // The run's streams: a prefix of its own on a cluster that keeps every earlier run's.
  const prefix = `failover.${t0.toString(36)}${randomBytes(3).toString('hex')}-`;
  const store = await eventStoreDbLog(url, prefix, db);
  teardown.add('verification client', () => store.close());

  const receiver = new WebhookReceiver(prng(SEED * 7919), 0.03);
  await receiver.start();
  teardown.add('receiver', () => receiver.close());

  // ---- services: all four start at once ----
  const shared = sharedSecrets(databaseUrl);
  const slots: ServiceSlot[] = await serviceSlots(tmp, shared, API_PROCESSES, store.env);
  teardown.add('services', async () => void (await Promise.all(slots.map((s) => s.stop()))));
  const startedAll = Date.now();
  await Promise.all(slots.map((s) => s.start()));
  log(`4 service processes ready in ${Date.now() - startedAll} ms (streams ${prefix}*)`);
  const api = slots.filter((s) => s.role === 'api');
  const worker = slots.find((s) => s.role === 'worker')!;
  const nginx = new Nginx({ dir: path.join(tmp, 'nginx'), listenPort: await freePort(), upstreamPorts: api.map((s) => s.port) });
  await nginx.start();
  teardown.add('nginx', () => nginx.stop());
  log(`nginx on ${nginx.url} -> ${api.map((s) => s.port).join(', ')}; worker on ${worker.port}; receiver on ${receiver.port}`);

  const client = new LoadClient(nginx.url, { maxAttempts: 400, maxMs: 150_000, attemptTimeoutMs: 20_000 });
  const { setup, endpointSeq, endpointId, runId } = await bootstrapTenant(client, nginx.url, shared, store, receiver, path.join(tmp, 'cli'), 'Failover');
  const tenant = setup.tenant;
  log(`workspace ${tenant}, channel ${setup.channelId}, endpoint ${endpointId} (created at seq ${endpointSeq})`);

  // ---- load and faults ----
  const faults: Fault[] = [];
  const kills: { target: string; at: number }[] = [];
  const elections: { killed: string; leader: string; seconds: number }[] = [];
  const windows: number[] = [];
  const rejoins: { node: string; seconds: number; starts: number; as: 'follower' | 'did not rejoin' }[] = [];
  const faultProblems: string[] = [];

  const faultLoop = async () => {
    await sleep(WARM_MS);
    for (let i = 0; i < KILLS; i++) {
      if (teardown.stopping) throw new Error('faults abandoned: the run is stopping');
      const victim: EsdbNode | null = await cluster.waitLeader(null, ELECTION_TIMEOUT_MS);
      if (!victim) throw new Error(`no leader to kill: ${await cluster.states()}`);
      const { pids, at } = await victim.kill();
      kills.push({ target: victim.name, at });
      log(`SIGKILL ${victim.label}, the leader (pid ${pids.join(', ')}; leader #${i + 1})`);
      const heir = await cluster.waitLeader(victim, ELECTION_TIMEOUT_MS);
      if (!heir) throw new Error(`no new leader within ${ELECTION_TIMEOUT_MS} ms of the kill: ${await cluster.states()}`);
      elections.push({ killed: victim.name, leader: heir.name, seconds: (Date.now() - at) / 1000 });
      log(`${heir.label} is the leader ${Date.now() - at} ms after the kill`);
      // The fault's window ends when every API process answers ready again: its client found the new leader.
      const readyAt = await allReady(api, 'a new leader was elected');
      faults.push({ kind: 'failover', target: victim.name, role: 'eventstore', at, readyAt });
      windows.push((readyAt - at) / 1000);
      log(`every API process ready ${readyAt - at} ms after the kill`);

      // The lost node comes back (as a supervisor would start it), and must rejoin as a follower, under load.
      if (teardown.stopping) throw new Error('restart abandoned: the run is stopping');
      const back = await cluster.restart(victim, heir, REJOIN_TIMEOUT_MS);
      rejoins.push({ node: victim.name, seconds: back.seconds, starts: back.starts, as: back.follower ? 'follower' : 'did not rejoin' });
      log(
        `${victim.label} ${back.follower ? 'rejoined as a follower' : 'DID NOT REJOIN'} ${Math.round(back.seconds * 1000)} ms after its restart (${back.starts} start${back.starts > 1 ? 's' : ''}): ${await cluster.states()}`,
      );
      if (!back.follower) {
        faultProblems.push(`${victim.label} did not rejoin as a follower within ${REJOIN_TIMEOUT_MS} ms (${back.starts} starts; see ${victim.logFile})`);
        break; // another kill would leave no quorum
      }
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
  log(`load stopped after ${(loadMs / 1000).toFixed(1)} s: ${records.length} requests; ${faults.length} leaders lost`);

  // ---- checks ----
  const { figures, violations, keysLeftInFlight, replaysChecked, readModelsEqual } = await settleAndCheck({
    db,
    log: store,
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
  // Every node holds the log the store reads: a restarted node kept its log (or truncated only what was never acknowledged).
  const ids = (await store.events(tenant)).map((e) => e.id);
  const copies = await cluster.copiesDiffer(url, prefix + tenant, ids, 60_000);
  violations.push(...copies);
  log(`each node's copy of the workspace's stream (${ids.length} events): ${copies.length === 0 ? 'equal' : `${copies.length} DIFFER`}`);

  const result = {
    store: 'eventstoredb',
    server: version,
    seed: SEED,
    clients: CLIENTS,
    duration_s: Math.round((Date.now() - t0) / 1000),
    load_s: Math.round(loadMs / 1000),
    kills: { leaders: kills.length, by_node: Object.fromEntries(cluster.nodes.map((n) => [n.name, n.kills])) },
    elections,
    fault_windows_s: windows,
    outages_s: outages(records, kills).map((o) => o.seconds),
    write_outages: writeOutages(records, kills, SLOW_WRITE_MS),
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
    // Without a workspace lock, a command that lost the race for the head at each of its 30 attempts answers 409
    // concurrent_modification (nothing was written, the key is released): the clients resend it with the same key,
    // and a request left with the 409 at the end of its retries is a violation. A gap of the EventStoreDB mode
    // (docs/eventstoredb.md, "Gaps that remain").
    concurrent_modification_409s: figures.concurrentModification,
    lost_answers_rebuilt: figures.answeredFromEarlierAttempt,
    longest_write_stall_ms: figures.longestWriteStall.ms,
    keys_left_in_flight: keysLeftInFlight,
    replays_checked: replaysChecked,
    read_models_equal_rebuild: readModelsEqual,
    node_copies_equal: copies.length === 0,
    events: figures.events,
    deliveries_due: figures.expectedDeliveries,
    deliveries_missing: figures.losses,
    violations: violations.length,
  };
  return report(
    result,
    violations,
    [
      ...slots.map((s) => ({ name: s.name, file: s.logFile })),
      ...cluster.nodes.filter((n) => n.starts > 0).map((n) => ({ name: `${n.label} start`, file: n.logFile })),
    ],
    `${kills.length} EventStoreDB leaders lost under load; no acknowledged write lost or doubled, seqs gapless, every due delivery received, keys settled and replayed, read models equal a rebuild, every node holds the same log.`,
  );
}

teardown.main(main, TIMEOUT_S);
