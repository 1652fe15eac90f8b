// What every scenario shares: the sizes of a run, the context the orchestrator
// (bench/run.ts) hands each scenario, and the helpers that run a load and say
// what it measured. The scenarios themselves are one per file beside this one;
// the list of them, and of the rows they make, is in ./index.ts.
import type { Bootstrapper, Tenant } from '../lib/bootstrap.js';
import { startDaemon, type Daemon } from '../lib/child.js';
import { cpuMeter, postgresScope, type CpuMeter } from '../lib/cpu.js';
import type { BenchDatabases } from '../lib/db.js';
import type { EventStoreTarget } from '../lib/eventstore.js';
import { unavailable, type Row } from '../lib/report.js';
import type { ServiceProcess } from '../lib/service.js';
import type { Generator, InterleavedInput, InterleavedResult, LoadInput, LoadResult, LoaderCall } from '../workers/load.js';

export interface Sizes {
  /** measured seconds of each throughput run */
  loadS: number;
  /** warm-up seconds before each measured run (JIT, pools, caches) */
  warmupS: number;
  /** measured seconds of each latency run (deep page) */
  latencyS: number;
  connections: number;
  /** conversations the reply rows spread their requests over (ours and the peer: the same ids) */
  replyPool: number;
  /** conversations (4 parts each) the read row spreads its GETs over */
  readPool: number;
  deepDepth: number;
  /** conversations the search scenario seeds (5 parts each) */
  searchConversations: number;
  rebuildEvents: number;
  rebuildTenants: number;
  /** events of the one workspace the audit export streams */
  auditExportEvents: number;
  /** rounds of the audit row's write ratio: four runs each, off and on twice, the side that starts alternating */
  auditRounds: number;
  appendWriters: number;
  appendRounds: number;
  webhookRate: number;
  webhookS: number;
  notifyS: number;
  /** open conversations under SLA the sla scenario seeds, how many of them fall due while it watches, and over how many seconds */
  slaOpen: number;
  slaMeasured: number;
  slaWindowS: number;
}

export const FULL: Sizes = {
  loadS: 10,
  warmupS: 3,
  latencyS: 5,
  connections: 32,
  replyPool: 1000,
  readPool: 100,
  deepDepth: 1_000_000,
  searchConversations: 100_000,
  rebuildEvents: 200_000,
  rebuildTenants: 100,
  // BENCH_AUDIT_EXPORT_EVENTS: another size, for exploring (a million take minutes to seed).
  auditExportEvents: Number(process.env.BENCH_AUDIT_EXPORT_EVENTS) || 1_000_000,
  auditRounds: 3,
  appendWriters: 16,
  appendRounds: 2,
  webhookRate: 200,
  webhookS: 60,
  notifyS: 10,
  slaOpen: 10_000,
  slaMeasured: 400,
  slaWindowS: 20,
};

export const QUICK: Sizes = {
  // Not shorter: under a neighbour's load a write at 32 connections can take most of a second, and a
  // run with no 2xx answer at all has no figure (the smoke test runs this mode).
  loadS: 1.5,
  warmupS: 0.5,
  latencyS: 0.5,
  connections: 32,
  replyPool: 100,
  readPool: 10,
  deepDepth: 5_000,
  searchConversations: 2_000,
  rebuildEvents: 5_000,
  rebuildTenants: 10,
  auditExportEvents: 5_000,
  auditRounds: 1,
  appendWriters: 16,
  appendRounds: 1,
  webhookRate: 200,
  webhookS: 2,
  notifyS: 0.5,
  slaOpen: 500,
  slaMeasured: 50,
  slaWindowS: 2,
};

/**
 * The service with its log in one store. The store-comparing scenarios (append, write, reply) measure their rows on
 * each side the run has: Postgres (the main service), then EventStoreDB when the run was given a server
 * (`--eventstoredb <url>` or EVENTSTORE_URL): a second service process with EVENTSTORE_URL set, on a database of
 * its own (read models, keys and the id index stay in Postgres), with tenants of its own. Each side's rows share
 * the one baseline the scenario measures, so their ratios compare.
 */
export interface StoreSide {
  store: 'postgres' | 'eventstoredb';
  /** the row's name on this side: `write` on Postgres, `write (eventstoredb)` on EventStoreDB */
  row(name: string): string;
  service(): Promise<ServiceProcess>;
  boot(): Promise<Bootstrapper>;
  tenant(name: string): Promise<Tenant>;
  /** the EventStoreDB server's process when it runs here (its CPU counts per request, beside Postgres's), else null */
  storePid: number | null;
}

/** A row's name with the log on EventStoreDB (the Postgres row's name is the plain one). */
export const onEventStoreDb = (name: string): string => `${name} (eventstoredb)`;

export interface Ctx {
  sizes: Sizes;
  dbs: BenchDatabases;
  /** the EventStoreDB server of this run, or null (no server given: the rows on Postgres only, as always) */
  eventstore: EventStoreTarget | null;
  /** Postgres, then EventStoreDB when the run has a server */
  sides(): StoreSide[];
  service(): Promise<ServiceProcess>;
  boot(): Promise<Bootstrapper>;
  tenant(name: string): Promise<Tenant>;
  /** the bare Express baseline server, answering with the JSON of GET /api/conversations/{id} */
  bare(): Promise<{ url: string; pid: number }>;
  /** a conversation of the main tenant with a few parts, and its JSON as our route renders it */
  sampleConversation(): Promise<{ id: string; json: unknown }>;
  /** a second service process on the same database with extra settings (stopped with the main one) */
  serviceWith(name: string, env: Record<string, string>): Promise<ServiceProcess>;
  /** stops that second process (its idle workers would otherwise share the cores with later scenarios) */
  stopServiceWith(name: string): Promise<void>;
  /** the load generator (autocannon), one process of its own for the whole run */
  loader(): Promise<Daemon<Record<string, never>>>;
  log(msg: string): void;
}

export interface Scenario {
  name: string;
  /** other names that select it (the memory row comes from the write run) */
  aliases?: string[];
  needsService: boolean;
  /** measures its rows on every side of the run (Postgres, and EventStoreDB when the run has a server) */
  onEachStore?: boolean;
  run(ctx: Ctx): Promise<Row[]>;
}

export const auth = (t: Tenant) => ({ authorization: `Bearer ${t.key}` });

export type Measured = LoadResult & { cpu?: ReturnType<CpuMeter['stop']> };

/** A load run in the load generator's process; with `pid`, the CPU that process and Postgres spent on it, per 2xx answer. */
export async function load(
  ctx: Ctx,
  url: string,
  generator: Generator,
  over: Partial<LoadInput> = {},
  pid: number | null = null,
  eventstorePid: number | null = null,
): Promise<Measured> {
  const input: LoadInput = { url, connections: ctx.sizes.connections, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS, generator, ...over };
  const loader = await ctx.loader();
  const meter = cpuMeter(pid, eventstorePid);
  const r = await loader.call<LoadResult>({ cmd: 'load', input } satisfies LoaderCall);
  return { ...r, cpu: meter.stop(r.ok + r.warmupOk) };
}

/** Latency of several GETs against each other, taking turns on one connection (see InterleavedInput). */
export async function interleaved(ctx: Ctx, input: InterleavedInput): Promise<InterleavedResult> {
  const loader = await ctx.loader();
  return loader.call<InterleavedResult>({ cmd: 'interleaved', input } satisfies LoaderCall);
}

/** What a load run reports beside its figure: errors, statuses, latency. */
export function loadDetails(r: Measured) {
  return {
    ...(r.cpu ? { cpu: r.cpu } : {}),
    ok: r.ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    seconds: r.durationS,
    statuses: r.statuses,
    latency_ms: r.latencyMs,
    ...(r.sampleError ? { sample_error: r.sampleError } : {}),
  };
}

/** Where the CPU went, per 2xx answer: the evidence behind a ratio. */
function cpuText(r: Measured, label: string): string | null {
  const u = r.cpu?.perUnit;
  if (!u || u.serviceMs === null) return null;
  const es = typeof u.eventstoreMs === 'number' ? ` + EventStoreDB ${u.eventstoreMs.toFixed(2)} ms` : '';
  return `${label} ${u.serviceMs.toFixed(2)} ms CPU${u.postgresMs !== null && u.postgresMs > 0.005 ? ` + Postgres ${u.postgresMs.toFixed(2)} ms` : ''}${es}`;
}

export function loadNote(r: Measured, base?: Measured, baseLabel = 'baseline'): string | undefined {
  const parts: string[] = [];
  const cpu = [cpuText(r, 'service'), base ? cpuText(base, baseLabel) : null].filter(Boolean);
  if (cpu.length) parts.push(`per request: ${cpu.join('; ')}${postgresScope() === 'machine' ? ' (Postgres CPU: every postgres process on this machine)' : ''}`);
  if (r.non2xx !== 0 || r.errors !== 0) {
    parts.push(
      `${r.non2xx} non-2xx answers and ${r.errors} errors during the run${r.sampleError ? ` (first: ${r.sampleError.slice(0, 160)})` : ''}; only 2xx answers are counted`,
    );
  }
  if (base && (base.non2xx !== 0 || base.errors !== 0)) {
    parts.push(
      `${baseLabel}: ${base.non2xx} non-2xx answers and ${base.errors} errors${base.sampleError ? ` (first: ${base.sampleError.slice(0, 160)})` : ''}`,
    );
  }
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * Measures `fn` on every side of the run, in turn. The Postgres side's failure fails the scenario (as before sides
 * existed); another side's becomes an error row of its own, so a server that fails mid-run costs its rows only.
 */
export async function onEachSide<T>(ctx: Ctx, what: string, fn: (side: StoreSide) => Promise<T>): Promise<{ side: StoreSide; out: T }[] & { failed: Row[] }> {
  const done = Object.assign([] as { side: StoreSide; out: T }[], { failed: [] as Row[] });
  for (const side of ctx.sides()) {
    try {
      done.push({ side, out: await fn(side) });
    } catch (e) {
      if (side.store === 'postgres') throw e;
      ctx.log(`  ${side.row(what)} failed: ${(e as Error).stack ?? e}`);
      done.failed.push(unavailable(side.row(what), 'could not be measured', (e as Error).message.slice(0, 500), 'error'));
    }
  }
  return done;
}

/** Runs `fn` over `items`, at most `concurrency` at a time. */
export async function inParallel<T, R>(items: readonly T[], concurrency: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

export async function sampleConversation(boot: Bootstrapper, main: Tenant): Promise<{ id: string; json: unknown }> {
  const created = await boot.expect(
    201,
    'POST',
    '/api/conversations',
    {
      channel_id: main.channelId,
      body: 'Hello, my order #4411 has not arrived yet.',
      subject: 'Where is my order?',
      contact: { external_id: 'bench-read-contact', name: 'Grace Hopper', email: 'grace@bench.example.com' },
    },
    auth(main),
  );
  const id = created.body.id as string;
  const replies = [
    ['comment', 'Thanks for reaching out! I have asked the warehouse to check the parcel.'],
    ['note', 'Customer is on the annual plan; refund window is 30 days.'],
    ['comment', 'Your replacement has shipped, the tracking number is 1Z999AA10123456784.'],
  ] as const;
  for (const [message_type, body] of replies) await boot.expect(201, 'POST', `/api/conversations/${id}/reply`, { message_type, body }, auth(main));
  const got = await boot.expect(200, 'GET', `/api/conversations/${id}`, undefined, auth(main));
  return { id, json: got.body };
}

/**
 * The e-mail rows' local resolver (bench/workers/dns-resolver.ts), as production has one: `env` points a service's
 * DNS_SERVERS at it; `asked()` says how many questions it answered.
 */
export async function localResolver(): Promise<{ env: { DNS_SERVERS: string }; asked(): Promise<number>; stop(): Promise<unknown> }> {
  const d = await startDaemon<{ port: number }>('dns-resolver.ts', {});
  return { env: { DNS_SERVERS: `127.0.0.1:${d.ready.port}` }, asked: () => d.call<number>({}), stop: () => d.stop() };
}
