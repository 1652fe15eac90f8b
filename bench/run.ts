// `npm run bench [-- <scenario>...] [--quick] [--out <file>] [--profile]`
//
// Starts Postgres (embedded, in a scratch folder, or DATABASE_URL), the service
// in its own process, and runs each scenario with its load generator and its
// baseline in processes of their own. Prints the table and writes the same as
// JSON under bench/results/. See bench/README.md for what each figure means.
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
import { table, unavailable, type Row } from './lib/report.js';
import { ServiceProcess } from './lib/service.js';
import { CLUSTER_ROWS, EXPERIMENT_ROWS, FULL, QUICK, ROW_NAMES, pick, sampleConversation, scenarioNames, type Ctx } from './scenarios/index.js';

const USAGE = `usage: npm run bench -- [scenario ...] [--quick] [--out <file>] [--profile] [--keep]
  scenarios: ${scenarioNames().join(', ')} (default: all)
  --quick      every scenario for about a second, small seeds (also BENCH_QUICK=1)
  --out FILE   also write the JSON result to FILE
  --profile    run the service with --cpu-prof (profiles land in <data dir>/profiles)
  --keep       keep the scratch databases afterwards (also BENCH_KEEP=1)
  env: DATABASE_URL (use that server instead of embedded Postgres), BENCH_DATA_DIR (scratch folder,
       default bench/.data), BENCH_LOG_LEVEL (service log level, default info),
       BENCH_SERVICE=compiled (the default: npm run build's tsc output, cached in bench/.build/<hash>, run as
       node main.js with NODE_ENV=production, as npm run start:prod does) or BENCH_SERVICE=tsx
       (node --import tsx src/main.ts)`;

const ORDER = [
  ...ROW_NAMES.slice(0, ROW_NAMES.indexOf('append') + 1),
  ...EXPERIMENT_ROWS,
  ...ROW_NAMES.slice(ROW_NAMES.indexOf('append') + 1),
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

  const ctx: Ctx = {
    sizes,
    dbs,
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
          cpuProfDir: values.profile || process.env.BENCH_CPU_PROF === '1' ? profileDir : undefined,
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
          cpuProfDir: values.profile || process.env.BENCH_CPU_PROF === '1' ? profileDir : undefined,
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
      log(`scenario ${s.name}…`);
      const t0 = Date.now();
      try {
        const out = await s.run(ctx);
        rows.push(...out);
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
    expected_rows: ROW_NAMES,
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
