// `npm run bench:interleave -- <commit> [<commit>] [--rounds N] [--burst S] [--load write|reply] [--processes N]
//  [--env-this K=V] [--env-other K=V]` (issue 50)
//
// What one write costs this checkout's service against another commit's, measured so that the machine's drift
// weighs on both alike. `bench:compare` alternates whole bench runs, minutes apart; on a shared 2-core machine the
// same commit's CPU per write moved from 1.95 to 3.65 ms between two such runs, so its pairs could not show a
// change of 10 %. Here both services run at once, each on a database of its own in one embedded Postgres, and
// take turns under the same load in short bursts (the first of each round alternating), each burst counting the
// CPU its side spent per 2xx answer: the service that took the requests, a second process of the same build
// that runs its background workers (leader-elected, so they would otherwise run in whichever service started
// first and bias it with the work of both), and the Postgres backends connected to its database. Every round
// gives a ratio this ÷ other; their median is the figure. The same commit on both sides reads 0.89 to 1.27 per
// round, medians 0.97 to 1.04 (docs/performance.md).
//
// Each side is built and bootstrapped by its own checkout's bench code (bench/lib/build.ts, bootstrap.ts), so
// the other commit may have other migrations; its service migrates its own database at start-up.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { git, otherCheckout } from './lib/checkout.js';
import { REPO_ROOT } from './lib/child.js';
import { cpuSeconds } from './lib/cpu.js';
import { openDatabases } from './lib/db.js';
import { productionNodeFlags, ServiceProcess } from './lib/service.js';
import { median } from './lib/stats.js';

const USAGE = `usage: npm run bench:interleave -- <commit> [<commit>] [--rounds N] [--burst S] [--load write|reply] [--processes N]
  <commit>     what to compare this checkout with (any name git knows; HEAD compares this commit with itself);
               a second one is measured instead of this checkout (to find which commit of a range cost what)
  --rounds N   bursts per side, alternating which goes first (default 8)
  --burst S    seconds of load per burst (default 5)
  --load L     write: POST /api/conversations with an Idempotency-Key, as the bench's write row (default);
               reply: POST /api/conversations/{id}/reply over 200 conversations, as its reply row
  --processes N
               API processes a side (default 1), on its one database, each taking an equal share of the connections:
               one workspace written through several processes, as behind a load balancer
  --env-this K=V, --env-other K=V
               a service setting for one side only (repeatable): HEAD against HEAD with --env-other AUDIT_CHAIN=off
               is what the hash chain costs a write`;

const CONNECTIONS = 32;
const TEXT = 'Hello, my order #4411 has not arrived yet and the tracking page has said "label created" for six days. Can you check?';
const REPLY = 'Thanks for waiting. I have checked with the carrier: your parcel left the depot this morning.';

/**
 * Run in a side's checkout, with that checkout's code: `build` its compiled service, or bootstrap a `tenant`
 * (workspace, owner, API key, api channel) against its running service. The answer is the last stdout line.
 */
const SIDE_SCRIPT = `
const { pathToFileURL } = await import('node:url');
const at = (f) => pathToFileURL(process.cwd() + '/bench/lib/' + f).href;
const [cmd, ...args] = JSON.parse(process.env.INTERLEAVE_ARGS);
let out;
if (cmd === 'build') {
  const b = await (await import(at('build.ts'))).prepareService((m) => console.error(m));
  out = { entry: b.entry, describe: b.describe };
} else {
  const boot = new (await import(at('bootstrap.ts'))).Bootstrapper(args[0], args[1]);
  const t = await boot.tenant(args[2]);
  await boot.close();
  out = { key: t.key, channelId: t.channelId };
}
process.stdout.write('\\n' + JSON.stringify(out) + '\\n');
process.exit(0);
`;

function onSide<T>(dir: string, args: unknown[]): T {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', SIDE_SCRIPT], {
    cwd: dir,
    env: { ...process.env, INTERLEAVE_ARGS: JSON.stringify(args), BENCH_SERVICE: 'compiled' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`${args[0]} in ${dir} failed (exit ${r.status}): ${r.stdout.slice(-2000)}`);
  return JSON.parse(last) as T;
}

interface Burst {
  ok: number;
  non2xx: number;
  serviceS: number;
  workersS: number;
  postgresS: number;
}

interface Side {
  label: 'this' | 'other';
  sha: string;
  dir: string;
  database: string;
  /** the API processes that take the load (the first also bootstraps and seeds) */
  svcs: ServiceProcess[];
  workers: ServiceProcess;
  headers: Record<string, string>;
  channelId: string;
  conversations: string[];
  bursts: Burst[];
}

const perAnswer = (b: Burst) => (b.serviceS + b.workersS + b.postgresS) / Math.max(b.ok, 1);
const ms = (s: number) => (s * 1000).toFixed(2);

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      rounds: { type: 'string' },
      burst: { type: 'string' },
      load: { type: 'string' },
      processes: { type: 'string' },
      'env-this': { type: 'string', multiple: true },
      'env-other': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [commit, instead] = positionals;
  const rounds = Number(values.rounds ?? 8);
  const burstS = Number(values.burst ?? 5);
  const load = values.load ?? 'write';
  const processes = Number(values.processes ?? 1);
  if (values.help || !commit || positionals.length > 2) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (
    !Number.isInteger(rounds) ||
    rounds < 1 ||
    !Number.isInteger(burstS) ||
    burstS < 1 ||
    !['write', 'reply'].includes(load) ||
    !Number.isInteger(processes) ||
    processes < 1 ||
    CONNECTIONS % processes !== 0
  ) {
    console.error(USAGE);
    return 2;
  }
  const settings = (given: string[] = []) => {
    const out: Record<string, string> = {};
    for (const kv of given) {
      const i = kv.indexOf('=');
      if (i < 1) throw new Error(`--env-this and --env-other take K=V, not "${kv}"\n${USAGE}`);
      out[kv.slice(0, i)] = kv.slice(i + 1);
    }
    return out;
  };
  const envs = { this: settings(values['env-this']), other: settings(values['env-other']) };
  const shown = (e: Record<string, string>) =>
    Object.keys(e).length
      ? ` with ${Object.entries(e)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`
      : '';
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const here = git(['rev-parse', '--verify', `${instead ?? 'HEAD'}^{commit}`]);
  const thisDir = instead ? otherCheckout(here).dir : REPO_ROOT;
  const dirty = !instead && git(['status', '--porcelain', '--', 'src', 'bench']) !== '';
  const otherDir = otherCheckout(sha).dir;
  const dataDir = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, 'bench', '.data'));
  mkdirSync(dataDir, { recursive: true });
  const log = (m: string) => console.error(`interleave: ${m}`);

  const dbs = await openDatabases({ dataDir, keep: false, log });
  const admin = new pg.Client({ connectionString: dbs.mainUrl });
  await admin.connect();
  const sides: Side[] = [];
  const started: ServiceProcess[] = [];
  try {
    for (const [label, dir, at] of [
      ['this', thisDir, here],
      ['other', otherDir, sha],
    ] as const) {
      const built = onSide<{ entry: string; describe: string }>(dir, ['build']);
      log(`${label} (${at.slice(0, 12)}${label === 'this' && dirty ? ' + uncommitted changes' : ''}): ${built.describe}`);
      const scratch = await dbs.scratch(`interleave_${label}`, { empty: true });
      if (scratch.url === null) throw new Error(scratch.reason);
      const start = async (role: string, env: Record<string, string>) => {
        const p = await ServiceProcess.start({
          databaseUrl: scratch.url,
          dataDir: path.join(dataDir, `interleave-${label}-${role}`),
          logFile: path.join(dataDir, `interleave-${label}-${role}.log`),
          logLevel: 'info',
          compiledEntry: built.entry,
          checkout: { dir, nodeFlags: productionNodeFlags(dir) },
          env: { ...envs[label], ...env },
        });
        started.push(p);
        return p;
      };
      const workers = await start('workers', {}); // first: it migrates the database
      const svcs: ServiceProcess[] = [];
      for (let i = 0; i < processes; i++) svcs.push(await start(i === 0 ? 'service' : `service-${i + 1}`, { WORKERS: 'off' }));
      const svc = svcs[0]!;
      const tenant = onSide<{ key: string; channelId: string }>(dir, ['tenant', scratch.url, svc.url, `interleave-${label}`]);
      const headers = { authorization: `Bearer ${tenant.key}` };
      const conversations: string[] = [];
      if (load === 'reply') {
        for (let i = 0; i < 200; i++) {
          const r = await fetch(`${svc.url}/api/conversations`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              channel_id: tenant.channelId,
              body: TEXT,
              subject: `Order ${i}`,
              contact: { external_id: `c-${i}`, name: `Customer ${i}` },
            }),
          });
          if (r.status !== 201) throw new Error(`seeding a conversation on ${label}: ${r.status} ${await r.text()}`);
          conversations.push(((await r.json()) as { id: string }).id);
        }
      }
      const database = new URL(scratch.url).pathname.slice(1);
      sides.push({ label, sha: at, dir, database, svcs, workers, headers, channelId: tenant.channelId, conversations, bursts: [] });
    }

    let n = 0;
    const burst = async (s: Side, seconds: number): Promise<Burst> => {
      const backends = (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [s.database])).rows.map((r) => r.pid);
      const cpu = () => ({
        service: s.svcs.reduce((sum, p) => sum + (cpuSeconds(p.pid) ?? NaN), 0),
        workers: cpuSeconds(s.workers.pid) ?? NaN,
        postgres: new Map(backends.map((pid) => [pid, cpuSeconds(pid)])),
      });
      const before = cpu();
      const runs = await Promise.all(
        s.svcs.map((svc) =>
          autocannon({
            url: svc.url,
            connections: CONNECTIONS / s.svcs.length,
            duration: seconds,
            requests: [
              {
                method: 'POST',
                path: '/api/conversations',
                setupRequest: (req: autocannon.Request) => {
                  const i = n++;
                  req.headers = { ...s.headers, 'content-type': 'application/json', 'idempotency-key': `interleave-${process.pid}-${i}` };
                  if (load === 'reply') {
                    req.path = `/api/conversations/${s.conversations[i % s.conversations.length]}/reply`;
                    req.body = JSON.stringify({ body: REPLY, message_type: 'comment' });
                  } else {
                    const c = i % 1000;
                    req.body = JSON.stringify({
                      channel_id: s.channelId,
                      body: TEXT,
                      subject: `Order ${i}`,
                      contact: { external_id: `contact-${c}`, name: `Customer ${c}`, email: `customer${c}@interleave.example.com` },
                    });
                  }
                  return req;
                },
              },
            ],
          }),
        ),
      );
      const after = cpu();
      let postgresS = 0;
      for (const [pid, was] of before.postgres) {
        const now = after.postgres.get(pid);
        if (was !== null && now !== null && now !== undefined) postgresS += now - was;
      }
      return {
        ok: runs.reduce((n, r) => n + r['2xx'], 0),
        non2xx: runs.reduce((n, r) => n + r.non2xx + r.errors, 0),
        serviceS: after.service - before.service,
        workersS: after.workers - before.workers,
        postgresS,
      };
    };

    // Warm-up, two bursts a side: the first rounds of a cold pair spent half as much again per answer (JIT, pools, caches).
    for (let i = 0; i < 2; i++) for (const s of sides) await burst(s, burstS);
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 ? [...sides].reverse() : sides;
      const said: string[] = [];
      for (const s of order) {
        const b = await burst(s, burstS);
        s.bursts.push(b);
        said.push(`${s.label} ${(b.ok / burstS).toFixed(0)}/s ${ms(perAnswer(b))} ms${b.non2xx ? ` (${b.non2xx} not 2xx)` : ''}`);
      }
      log(`round ${i + 1}: ${said.join(', ')}`);
    }

    const [a, b] = sides as [Side, Side];
    const row = (name: string, f: (x: Burst) => number, digits = 2) => {
      const fa = a.bursts.map(f);
      const fb = b.bursts.map(f);
      const ratios = fa.map((x, i) => x / fb[i]!);
      return `| ${name} | ${median(fa).toFixed(digits)} | ${median(fb).toFixed(digits)} | ${ratios.map((x) => x.toFixed(3)).join(', ')} | **${median(ratios).toFixed(3)}** |`;
    };
    const per = (k: 'serviceS' | 'workersS' | 'postgresS') => (x: Burst) => (x[k] * 1000) / Math.max(x.ok, 1);
    const lines = [
      '',
      `npm run bench:interleave (${load}): ${rounds} rounds of ${burstS} s a side, ${CONNECTIONS} connections${processes > 1 ? ` over ${processes} API processes a side` : ''}, alternating which goes first`,
      `this: ${a.sha.slice(0, 12)}${dirty ? ' + uncommitted changes' : ''} (${a.dir})${shown(envs.this)}; other: ${b.sha.slice(0, 12)} (${b.dir})${shown(envs.other)}`,
      '',
      '| per 2xx answer | this (median) | other (median) | this ÷ other, per round | median |',
      '|---|---|---|---|---|',
      row('CPU ms, all three', (x) => perAnswer(x) * 1000),
      row('service ms', per('serviceS')),
      row('its workers ms', per('workersS')),
      row('Postgres backends ms', per('postgresS')),
      row('answers a second', (x) => x.ok / burstS, 0),
      '',
    ];
    process.stdout.write(lines.join('\n'));
    return 0;
  } finally {
    for (const p of started) await p.stop();
    await admin.end();
    await dbs.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
