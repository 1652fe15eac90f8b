// What the scale-out and failover runs share besides the processes (procs.ts),
// the load (load.ts), the receiver and the checks: tearing everything down
// whatever happens (a hard timeout, a signal, a failure), starting the service
// processes, bootstrapping a workspace the way a user would (the CLI, then
// HTTP through the load balancer), waiting for every API process to be ready,
// and letting the worker drain before the checks.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { LoadClient, runLoad, type RequestRecord, type Setup } from './load.js';
import type { LogView } from './log-view.js';
import { REPO_ROOT, serviceEnv, ServiceSlot, sleep } from './procs.js';
import type { WebhookReceiver } from './receiver.js';
import { prng } from '../../bench/lib/events.js';

/** A run's numeric setting from the environment: `fallback` when unset, empty, negative or not a number. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  const v = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/**
 * Everything a run started, stopped in reverse order of creation, once, each
 * step bounded; and the run itself, ended by its result, a failure, a signal or
 * the hard timeout (exit 0/1 as main says, 2 on a failure, 3 on the timeout,
 * 130 on a signal), always through the teardown.
 */
export class Teardown {
  private readonly steps: { what: string; fn: () => Promise<void> }[] = [];
  private cleaning: Promise<void> | null = null;
  /** set once the teardown began: a fault loop must not start what nobody will stop */
  stopping = false;

  constructor(private readonly name: string) {}

  add(what: string, fn: () => Promise<void>): void {
    this.steps.push({ what, fn });
  }

  run(): Promise<void> {
    this.stopping = true;
    this.cleaning ??= (async () => {
      for (const c of this.steps.reverse()) {
        try {
          await Promise.race([c.fn(), sleep(30_000).then(() => Promise.reject(new Error('timed out')))]);
        } catch (e) {
          console.error(`[${this.name}] cleanup of ${c.what} failed: ${(e as Error).message}`);
        }
      }
    })();
    return this.cleaning;
  }

  /** Runs `main` under a hard timeout and signal handlers; exits the process when all is torn down. */
  main(main: () => Promise<number>, timeoutS: number): void {
    const hardTimeout = setTimeout(() => {
      console.error(`[${this.name}] hard timeout: ${timeoutS} s passed; stopping everything`);
      void this.run().finally(() => process.exit(3));
    }, timeoutS * 1000);
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        console.error(`[${this.name}] ${sig}: stopping everything`);
        void this.run().finally(() => process.exit(130));
      });
    }
    // An error nobody awaited (a client's stray 'error' event) must not leave the processes behind either.
    process.once('uncaughtException', (e) => {
      console.error(`[${this.name}] uncaught: ${(e as Error).stack ?? e}; stopping everything`);
      void this.run().finally(() => process.exit(2));
    });
    main().then(
      async (code) => {
        await this.run();
        clearTimeout(hardTimeout);
        process.exit(code);
      },
      async (e) => {
        console.error(`[${this.name}] failed: ${(e as Error).stack ?? e}`);
        await this.run();
        clearTimeout(hardTimeout);
        process.exit(2);
      },
    );
  }
}

/** Runs the CLI (`src/cli.ts`) with `env`; its last line of output, as JSON. */
export function cli(args: string[], env: NodeJS.ProcessEnv): Promise<any> {
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
export async function allReady(api: ServiceSlot[], what = 'Postgres came back'): Promise<number> {
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
  if (pending.size > 0) throw new Error(`not ready a minute after ${what}: ${[...pending].map((s) => s.name).join(', ')}`);
  return Date.now();
}

/** One setup request through the load balancer, retried like the load does; must answer `status`. */
export async function setupCall(client: LoadClient, method: string, p: string, body: unknown, headers: Record<string, string>, status: number) {
  const rec: RequestRecord = { client: -1, kind: 'list', method, path: p, attempts: [], final: null, replayed: false };
  await client.send(rec, headers, body === undefined ? undefined : JSON.stringify(body));
  if (rec.final !== status) throw new Error(`${method} ${p} answered ${rec.final}: ${JSON.stringify(rec.body)}`);
  return rec;
}

/** The settings every process of a run shares (one database, one set of secrets). */
export interface Shared {
  databaseUrl: string;
  secretsKey: string;
  channelsSecret: string;
}

export function sharedSecrets(databaseUrl: string): Shared {
  return { databaseUrl, secretsKey: randomBytes(32).toString('base64url'), channelsSecret: randomBytes(32).toString('base64url') };
}

/**
 * `apiProcesses` API processes (WORKERS=off) and one worker (WORKERS=on), on free
 * ports, each with a DATA_DIR of its own under `dir`; not started yet.
 */
export async function serviceSlots(dir: string, shared: Shared, apiProcesses: number, extra: Record<string, string> = {}): Promise<ServiceSlot[]> {
  const common = {
    HOST: '127.0.0.1',
    DATABASE_URL: shared.databaseUrl,
    SERVICE_SECRETS_KEY: shared.secretsKey,
    SERVICE_CHANNELS_SECRET: shared.channelsSecret,
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    WEBHOOK_RETRY_BASE_SECONDS: '1',
    WEBHOOK_TIMEOUT_MS: '3000',
    TRUST_PROXY: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...extra,
  };
  const slots: ServiceSlot[] = [];
  for (let i = 0; i < apiProcesses + 1; i++) {
    const role = i < apiProcesses ? 'api' : 'worker';
    const name = role === 'api' ? `api${i + 1}` : 'worker';
    const port = await freePort();
    slots.push(
      new ServiceSlot(
        name,
        role,
        port,
        serviceEnv({ ...common, PORT: String(port), WORKERS: role === 'api' ? 'off' : 'on', DATA_DIR: path.join(dir, name) }),
        dir,
      ),
    );
  }
  return slots;
}

/**
 * A workspace as a user makes one: its owner through the CLI, then through the
 * load balancer a session, an API key, an `api` channel and a webhook endpoint
 * pointed at `receiver` (whose secret is set). Returns the load's setup and the
 * seq of the endpoint's creation (deliveries are due for every later seq). The
 * CLI gets the log's settings (`log.env`): without the services' EVENTSTORE_URL
 * it would write the workspace to a log the services never read.
 */
export async function bootstrapTenant(
  client: LoadClient,
  base: string,
  shared: Shared,
  log: LogView,
  receiver: WebhookReceiver,
  cliDataDir: string,
  name: string,
): Promise<{ setup: Setup; endpointSeq: number; endpointId: string; runId: string }> {
  const runId = randomBytes(4).toString('hex');
  const email = `owner-${runId}@scale.example.com`;
  const password = 'correct horse battery staple';
  const ws = await cli(
    ['workspace', 'create', '--name', `${name} ${runId}`, '--owner-email', email, '--owner-password', password],
    serviceEnv({ DATABASE_URL: shared.databaseUrl, SERVICE_SECRETS_KEY: shared.secretsKey, LOG_LEVEL: 'warn', DATA_DIR: cliDataDir, ...log.env }),
  );
  const tenant: string = ws.workspace_id;
  const session = await fetch(`${base}/api/session`, {
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
    { name, scopes: ['conversations:read', 'conversations:write', 'settings:read', 'settings:write', 'events:read'] },
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
    { kind: 'api', name: `${name} bridge ${runId}`, default_team_id: null, webhook_secret: channelSecret },
    { ...auth, 'idempotency-key': `channel-${runId}` },
    201,
  );
  const hook = await setupCall(
    client,
    'POST',
    '/api/webhooks',
    { url: receiver.url, event_names: [], description: `${name} receiver` },
    { ...auth, 'idempotency-key': `hook-${runId}` },
    201,
  );
  receiver.secret = hook.body.secret;
  const endpointSeq = Number((await log.events(tenant)).find((e) => e.type === 'webhook_endpoint.created' && e.aggregate_id === hook.body.id)?.seq);
  if (!Number.isInteger(endpointSeq)) throw new Error('the endpoint creation event is not in the log');
  return { setup: { tenant, apiKey, channelId: channel.body.id, channelSecret }, endpointSeq, endpointId: hook.body.id, runId };
}

/**
 * Waits (bounded) until nothing is pending or leased, the dispatcher is at the
 * head of the log and the receiver has every due seq. Returns whether it got
 * there and the last state seen.
 */
export async function drain(
  db: Knex,
  log: LogView,
  tenant: string,
  receiver: WebhookReceiver,
  endpointSeq: number,
  timeoutMs: number,
): Promise<{ drained: boolean; state: string; ms: number }> {
  const drainStart = Date.now();
  let state = '';
  while (Date.now() - drainStart < timeoutMs) {
    const pending = Number(((await db('webhook_deliveries').where({ state: 'pending' }).count({ n: '*' })) as { n: string }[])[0]!.n);
    const headPos = await log.lastPosition(tenant);
    const checkpoint = (await db('subscription_checkpoints').where({ name: 'webhook_dispatcher' }).first('position'))?.position;
    const head = await log.head(tenant);
    const got = receiver.acceptedSeqs(tenant);
    let missing = 0;
    for (let s = endpointSeq + 1; s <= head; s++) if (!got.has(s)) missing++;
    state = `pending ${pending}, dispatcher ${checkpoint === headPos ? 'at the head' : `at ${checkpoint} (head ${headPos})`}, ${missing} due seqs not yet received`;
    if (pending === 0 && checkpoint === headPos && missing === 0) return { drained: true, state, ms: Date.now() - drainStart };
    await sleep(500);
  }
  return { drained: false, state, ms: Date.now() - drainStart };
}

/**
 * The run's load (`clients` closed-loop clients through `client`) while `faults` runs, and `tailMs` after it
 * ended: every fault happens under load (a fault after the load stopped would test nothing). When `faults`
 * fails no new request starts (the teardown cuts off those under way) and its error is thrown.
 */
export async function loadThrough(
  client: LoadClient,
  setup: Setup,
  o: { clients: number; seed: number; runId: string; tailMs: number; say: (m: string) => void; receiver: WebhookReceiver },
  faults: () => Promise<void>,
): Promise<{ records: RequestRecord[]; loadStart: number; loadEnd: number }> {
  const loadStart = Date.now();
  let loadEnd = Infinity;
  const records: RequestRecord[] = [];
  const faultsDone = faults().then(() => void (loadEnd = Date.now() + o.tailMs));
  const progress = setInterval(() => o.say(`load: ${records.length} requests, ${o.receiver.deliveries.length} deliveries received`), 10_000);
  const loadDone = runLoad(client, setup, { clients: o.clients, until: () => loadEnd, rnd: (c) => prng(o.seed * 1000 + c + 1), runId: o.runId }, records);
  try {
    await faultsDone;
  } catch (e) {
    loadEnd = 0;
    loadDone.catch(() => undefined);
    throw e;
  } finally {
    clearInterval(progress);
  }
  await loadDone;
  return { records, loadStart, loadEnd };
}
