// `npm run bench [-- <scenario>...] [--quick] [--out <file>] [--profile] [--eventstoredb <url>]`
//
// Starts Postgres (embedded, in a scratch folder, or DATABASE_URL), the service
// in its own process, and runs each scenario with its load generator and its
// baseline in processes of their own. Prints the table and writes the same as
// JSON under bench/results/. See bench/README.md for what each figure means.
// Given an EventStoreDB server, the store-comparing scenarios (append, write,
// reply) measure their rows again with the log there, in the same run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Bootstrapper, type Tenant } from './lib/bootstrap.js';
import { REPO_ROOT, startDaemon, type Daemon } from './lib/child.js';
import { openDatabases } from './lib/db.js';
import { setPostmaster } from './lib/cpu.js';
import { prepareService, serviceMode, type ServiceBuild } from './lib/build.js';
import { eventStoreTarget, type EventStoreTarget } from './lib/eventstore.js';
import { table, unavailable, type Row } from './lib/report.js';
import { ServiceProcess } from './lib/service.js';
import {
  CLUSTER_ROWS,
  EVENTSTORE_ROWS,
  EXPERIMENT_ROWS,
  FULL,
  QUICK,
  ROW_NAMES,
  onEventStoreDb,
  pick,
  sampleConversation,
  scenarioNames,
  type Ctx,
  type StoreSide,
} from './scenarios/index.js';

const USAGE = `usage: npm run bench -- [scenario ...] [--quick] [--out <file>] [--profile] [--keep] [--eventstoredb <url>]
  scenarios: ${scenarioNames().join(', ')} (default: all)
  --quick      every scenario for about a second, small seeds (also BENCH_QUICK=1)
  --eventstoredb URL  also measure the append, write and reply rows with the service's log on this EventStoreDB
               server (esdb://host:2113?tls=false), as extra "(eventstoredb)" rows; EVENTSTORE_URL does the same
  --out FILE   also write the JSON result to FILE
  --profile    run the service with --cpu-prof (profiles land in <data dir>/profiles)
  --keep       keep the scratch databases afterwards (also BENCH_KEEP=1)
  env: DATABASE_URL (use that server instead of embedded Postgres), BENCH_DATA_DIR (scratch folder,
       default bench/.data), BENCH_LOG_LEVEL (service log level, default info),
       BENCH_SERVICE=compiled (the default: npm run build's tsc output, cached in bench/.build/<hash>, run as
       node main.js with NODE_ENV=production, as npm run start:prod does) or BENCH_SERVICE=tsx
       (node --import tsx src/main.ts)`;

// Each row on EventStoreDB prints right after its Postgres row.
const withEventStore = (names: string[]) => names.flatMap((n) => [n, ...(EVENTSTORE_ROWS.includes(onEventStoreDb(n)) ? [onEventStoreDb(n)] : [])]);
const ORDER = [
  ...withEventStore(ROW_NAMES.slice(0, ROW_NAMES.indexOf('append') + 1)),
  ...EXPERIMENT_ROWS,
  ...withEventStore(ROW_NAMES.slice(ROW_NAMES.indexOf('append') + 1)),
  ...CLUSTER_ROWS,
];
const rank = (scenario: string) => {
  const i = ORDER.indexOf(scenario);
  return i < 0 ? ORDER.length : i;
};

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      quick: { type: 'boolean' },
      out: { type: 'string' },
      profile: { type: 'boolean' },
      keep: { type: 'boolean' },
      eventstoredb: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const quick = values.quick === true || process.env.BENCH_QUICK === '1';
  const sizes = { ...(quick ? QUICK : FULL) };
  // For exploring, not for the table of record: BENCH_CONNECTIONS=1 npm run bench -- write
  if (process.env.BENCH_CONNECTIONS) sizes.connections = Number(process.env.BENCH_CONNECTIONS);
  let scenarios;
  try {
    scenarios = pick(positionals);
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const dataDir = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, 'bench', '.data'));
  const serviceDir = path.join(dataDir, 'service');
  mkdirSync(serviceDir, { recursive: true });
  const profileDir = path.join(dataDir, 'profiles');
  if (values.profile || process.env.BENCH_CPU_PROF === '1') mkdirSync(profileDir, { recursive: true });
  const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';
  try {
    serviceMode();
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const started = new Date();
  const log = (m: string) => process.stderr.write(`[bench ${((Date.now() - started.getTime()) / 1000).toFixed(1).padStart(6)}s] ${m}\n`);

  log(`${quick ? 'quick' : 'full'} run: ${scenarios.map((s) => s.name).join(', ')}`);
  // The server is checked before anything starts: a run asked for its rows that cannot reach it is a usage error.
  const eventstoreUrl = values.eventstoredb?.trim() || process.env.EVENTSTORE_URL?.trim() || null;
  let eventstore: EventStoreTarget | null = null;
  if (eventstoreUrl) {
    try {
      eventstore = await eventStoreTarget(eventstoreUrl);
    } catch (e) {
      console.error(`${(e as Error).message}\n${USAGE}`);
      return 2;
    }
    log(`EventStoreDB ${eventstore.version} at ${eventstore.shown} (streams ${eventstore.streamPrefix}*; CPU: ${eventstore.pidHow})`);
  }
  const commit = gitCommit();
  // The service is built (or its earlier identical build found) while Postgres starts.
  let build: ServiceBuild | null = null;
  const building = scenarios.some((s) => s.needsService)
    ? prepareService(log).then((b) => {
        build = b;
        log(`service: ${b.describe}`);
        return b;
      })
    : null;
  building?.catch(() => undefined); // awaited (and reported) where the service starts
  const dbs = await openDatabases({ dataDir, keep: values.keep === true || process.env.BENCH_KEEP === '1', log });
  setPostmaster(dbs.postmasterPid);
  const postgres = await dbs.postgresVersion();
  log(`Postgres: ${postgres}`);

  let service: ServiceProcess | null = null;
  const extraServices = new Map<string, ServiceProcess>();
  let boot: Bootstrapper | null = null;
  let bare: Daemon<{ url: string }> | null = null;
  let loader: Promise<Daemon<Record<string, never>>> | null = null;
  const tenants = new Map<string, Promise<Tenant>>();
  let sample: Promise<{ id: string; json: unknown }> | null = null;
  const logFile = path.join(dataDir, 'service.log');
  const cpuProfDir = values.profile || process.env.BENCH_CPU_PROF === '1' ? profileDir : undefined;

  // The service with its log on EventStoreDB: a process of its own on a scratch database of its own (a database's
  // read models follow one log), started on first use and stopped once no scenario left measures on it.
  interface EsdbSide {
    started: Promise<{ svc: ServiceProcess; url: string; drop(): Promise<void> }>;
    boot: Promise<Bootstrapper> | null;
    tenants: Map<string, Promise<Tenant>>;
  }
  let esdb: EsdbSide | null = null;
  const esdbSide = (target: EventStoreTarget): EsdbSide => {
    esdb ??= {
      started: (async () => {
        const { entry: compiledEntry } = await building!;
        const scratch = await dbs.scratch('eventstoredb');
        if (scratch.url === null) throw new Error(scratch.reason);
        const file = path.join(dataDir, 'service-eventstoredb.log');
        log(`starting the service with its log on EventStoreDB (log: ${path.relative(process.cwd(), file)})`);
        const svc = await ServiceProcess.start({
          databaseUrl: scratch.url,
          dataDir: `${serviceDir}-eventstoredb`,
          logFile: file,
          logLevel,
          cpuProfDir,
          compiledEntry,
          env: { EVENTSTORE_URL: target.url, EVENTSTORE_STREAM_PREFIX: target.streamPrefix },
        });
        log(`service (eventstoredb) pid ${svc.pid} at ${svc.url}`);
        return { svc, url: scratch.url, drop: scratch.drop };
      })(),
      boot: null,
      tenants: new Map(),
    };
    return esdb;
  };
  const stopEsdb = async () => {
    const side = esdb;
    esdb = null;
    if (!side) return;
    await (await side.boot?.catch(() => null))?.close().catch(() => undefined);
    const started = await side.started.catch(() => null);
    if (started) {
      log('stopping the service (eventstoredb)');
      await started.svc.stop();
      await started.drop();
    }
  };
  const sides: StoreSide[] = [
    {
      store: 'postgres',
      row: (name) => name,
      service: () => ctx.service(),
      boot: () => ctx.boot(),
      tenant: (name) => ctx.tenant(name),
      storePid: null,
    },
  ];
  if (eventstore) {
    const target = eventstore;
    const boot = () => {
      const side = esdbSide(target);
      side.boot ??= side.started.then(async ({ svc, url }) => {
        const { connectEventStoreDb } = await import('../src/eventstore/eventstoredb.store.js');
        return new Bootstrapper(url, svc.url, (db) => connectEventStoreDb(target.url, db, { streamPrefix: target.streamPrefix }));
      });
      return side.boot;
    };
    sides.push({
      store: 'eventstoredb',
      row: onEventStoreDb,
      service: async () => (await esdbSide(target).started).svc,
      boot,
      tenant(name) {
        const side = esdbSide(target);
        let t = side.tenants.get(name);
        if (!t) {
          t = boot().then((b) => b.tenant(name));
          side.tenants.set(name, t);
        }
        return t;
      },
      storePid: target.pid,
    });
  }

  const ctx: Ctx = {
    sizes,
    dbs,
    eventstore,
    sides: () => sides,
    log,
    async service() {
      if (!service) {
        const { entry: compiledEntry } = await building!;
        log(`starting the service (log: ${path.relative(process.cwd(), logFile)})`);
        service = await ServiceProcess.start({
          databaseUrl: dbs.mainUrl,
          dataDir: serviceDir,
          logFile,
          logLevel,
          cpuProfDir,
          compiledEntry,
        });
        log(`service pid ${service.pid} at ${service.url}`);
      }
      return service;
    },
    async serviceWith(name, env) {
      let svc = extraServices.get(name);
      if (!svc) {
        await ctx.service(); // migrations and the main process first
        const { entry: compiledEntry } = await building!;
        const file = path.join(dataDir, `service-${name}.log`);
        log(`starting a second service, ${name} (log: ${path.relative(process.cwd(), file)})`);
        // --profile profiles these too (the `email hostile` row's load is on its second service, not the main one).
        svc = await ServiceProcess.start({
          databaseUrl: dbs.mainUrl,
          dataDir: `${serviceDir}-${name}`,
          logFile: file,
          logLevel,
          cpuProfDir,
          compiledEntry,
          env,
        });
        extraServices.set(name, svc);
      }
      return svc;
    },
    async stopServiceWith(name) {
      const svc = extraServices.get(name);
      extraServices.delete(name);
      if (svc) {
        log(`stopping the second service, ${name}`);
        await svc.stop();
      }
    },
    async boot() {
      boot ??= new Bootstrapper(dbs.mainUrl, (await ctx.service()).url);
      return boot;
    },
    tenant(name) {
      let t = tenants.get(name);
      if (!t) {
        t = ctx.boot().then((b) => b.tenant(name));
        tenants.set(name, t);
      }
      return t;
    },
    sampleConversation() {
      sample ??= (async () => sampleConversation(await ctx.boot(), await ctx.tenant('main')))();
      return sample;
    },
    loader() {
      loader ??= startDaemon<Record<string, never>>('load.ts', {});
      return loader;
    },
    async bare() {
      bare ??= await startDaemon<{ url: string }>('bare-server.ts', { json: (await ctx.sampleConversation()).json });
      return { url: bare.ready.url, pid: bare.pid };
    },
  };

  const rows: Row[] = [];
  let failed = false;
  const stopService = async () => {
    await stopEsdb();
    await bare?.stop().catch(() => undefined);
    bare = null;
    await boot?.close().catch(() => undefined);
    boot = null;
    for (const extra of extraServices.values()) await extra.stop().catch(() => undefined);
    extraServices.clear();
    const svc = service as ServiceProcess | null;
    service = null;
    if (svc) {
      log('stopping the service');
      await svc.stop();
    }
  };
  try {
    for (const [i, s] of scenarios.entries()) {
      // The store scenarios need no service: stop it first, so its idle workers do not share the cores.
      if (!scenarios.slice(i).some((x) => x.needsService)) await stopService();
      // Likewise the service on EventStoreDB, once no scenario left measures on it.
      if (!scenarios.slice(i).some((x) => x.needsService && x.onEachStore)) await stopEsdb();
      log(`scenario ${s.name}…`);
      const t0 = Date.now();
      try {
        const out = await s.run(ctx);
        rows.push(...out);
        // A side that could not be measured (the EventStoreDB server failing mid-run) is an error row of its own.
        if (out.some((r) => r.status === 'error')) failed = true;
        for (const r of out)
          log(
            `  ${r.scenario}: ours ${r.ours?.toFixed(2) ?? '—'} ${r.unit}, baseline ${r.baseline?.toFixed(2) ?? '—'}, ratio ${r.ratio?.toFixed(3) ?? '—'} → ${r.status}`,
          );
      } catch (e) {
        failed = true;
        log(`  ${s.name} failed: ${(e as Error).stack ?? e}`);
        rows.push(unavailable(s.name, 'scenario failed', (e as Error).message.slice(0, 500), 'error'));
      }
      log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await stopService();
    const loading = loader as Promise<Daemon<Record<string, never>>> | null;
    if (loading) await (await loading.catch(() => null))?.stop().catch(() => undefined);
    await dbs.close();
  }
  // The table reads in a fixed order whatever the run order.
  rows.sort((a, b) => rank(a.scenario) - rank(b.scenario));

  const finished = new Date();
  const profiles =
    values.profile || process.env.BENCH_CPU_PROF === '1'
      ? readdirSync(profileDir)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => path.join(profileDir, f))
      : [];
  const result = {
    started_at: started.toISOString(),
    finished_at: finished.toISOString(),
    seconds: (finished.getTime() - started.getTime()) / 1000,
    mode: quick ? 'quick' : 'full',
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    commit,
    scenarios: scenarios.map((s) => s.name),
    // The rows on EventStoreDB are expected only of a run that had a server (a run without one has none).
    expected_rows: [...ROW_NAMES, ...(eventstore ? EVENTSTORE_ROWS : [])],
    eventstoredb: eventstore
      ? { server: eventstore.shown, version: eventstore.version, stream_prefix: eventstore.streamPrefix, server_cpu: eventstore.pidHow }
      : null,
    node: process.version,
    postgres,
    database: dbs.source,
    machine: {
      platform: `${os.platform()} ${os.release()}`,
      arch: os.arch(),
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    },
    // Anything that makes this run differ from the plain command (exploring, not figures of record).
    overrides: Object.fromEntries(
      [
        'BENCH_CONNECTIONS',
        'BENCH_SERVICE',
        'BENCH_SERVICE_ENTRY',
        'BENCH_SERVICE_NODE_OPTIONS',
        'BENCH_EXPERIMENTS',
        'BENCH_LOG_LEVEL',
        'BENCH_CPU_PROF',
        'BENCH_WORKER_CPU_PROF',
        'BENCH_AUDIT_EXPORT_EVENTS',
        'BENCH_RULES_RATE',
      ]
        .filter((k) => process.env[k] !== undefined && !(k === 'BENCH_SERVICE' && process.env[k] === 'compiled'))
        .map((k) => [k, process.env[k]]),
    ) as Record<string, string>,
    service_log_level: logLevel,
    service_mode: (build as ServiceBuild | null)?.mode ?? serviceMode(),
    service: (build as ServiceBuild | null)?.describe ?? null,
    sizes,
    rows,
    ...(profiles.length ? { cpu_profiles: profiles } : {}),
  };

  const text = [
    '',
    `npm run bench (${result.mode}) — ${finished.toISOString()} — ${result.seconds.toFixed(0)} s`,
    ...(Object.keys(result.overrides).length
      ? [
          `overrides (not figures of record): ${Object.entries(result.overrides)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
        ]
      : []),
    `commit ${commit}; node ${result.node}; ${postgres}; ${result.machine.cpus} × ${result.machine.cpu_model}; database: ${dbs.source}`,
    `service: ${result.service ?? '(not started)'}; LOG_LEVEL=${logLevel}`,
    ...(eventstore
      ? [
          `EventStoreDB ${eventstore.version} at ${eventstore.shown} for the "(eventstoredb)" rows (informational; the same baselines as the Postgres rows); its CPU: ${eventstore.pidHow}`,
        ]
      : []),
    '',
    table(rows),
    '',
    ...rows.filter((r) => r.note).map((r) => `- ${r.scenario}: ${r.note}`),
    ...(profiles.length ? ['', `CPU profiles: ${profiles.join(', ')}`] : []),
    '',
  ].join('\n');
  process.stdout.write(text);

  const resultsDir = path.resolve(process.env.BENCH_RESULTS_DIR ?? path.join(REPO_ROOT, 'bench', 'results'));
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(result, null, 2)}\n`;
  const file = path.join(resultsDir, `bench-${result.mode}-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, json);
  writeFileSync(path.join(resultsDir, 'latest.json'), json);
  if (values.out) writeFileSync(path.resolve(values.out), json);
  process.stdout.write(`results: ${path.relative(process.cwd(), file)}${values.out ? ` and ${values.out}` : ''}\n`);
  return failed ? 1 : 0;
}

/** The commit measured, with a mark when the working tree differs from it. */
function gitCommit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync(
      'git',
      ['status', '--porcelain', '--', 'src', 'bench', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    ).trim();
    return dirty ? `${sha} + uncommitted changes` : sha;
  } catch {
    return 'unknown';
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
