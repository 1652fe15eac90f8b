// The scenarios. Each measures our figure and its baseline in the same run,
// each in processes of their own (bench/workers/*), and returns table rows.
import { randomUUID } from 'node:crypto';
import { encodeCursor } from '../src/api/pagination/cursor.js';
import { isoKey } from '../src/api/pagination/list.js';
import type { Bootstrapper, Tenant } from './lib/bootstrap.js';
import { runTask, startDaemon } from './lib/child.js';
import type { BenchDatabases } from './lib/db.js';
import { row, unavailable, type Row } from './lib/report.js';
import type { ServiceProcess } from './lib/service.js';
import { median, sleep, summarize } from './lib/stats.js';
import { cpuMeter, type CpuMeter } from './lib/cpu.js';
import type { AppendInput, AppendResult } from './workers/append.js';
import type { BareInput } from './workers/bare-server.js';
import type { LoadInput, LoadResult, Generator } from './workers/load.js';
import type { OffsetInput, OffsetResult } from './workers/pg-offset.js';
import type { PgInsertInput, PgInsertResult } from './workers/pg-insert.js';
import type { RebuildInput, RebuildStepResult } from './workers/rebuild.js';
import type { AppenderInput, AppenderResult } from './workers/webhook-appender.js';
import type { Arrival, ReceiverCall } from './workers/webhook-receiver.js';
import { rls } from './scenarios/rls.js';

export interface Sizes {
  /** measured seconds of each throughput run */
  loadS: number;
  /** warm-up seconds before each measured run (JIT, pools, caches) */
  warmupS: number;
  /** measured seconds of each latency run (deep page) */
  latencyS: number;
  connections: number;
  deepDepth: number;
  rebuildEvents: number;
  rebuildTenants: number;
  appendWriters: number;
  appendRounds: number;
  webhookRate: number;
  webhookS: number;
  notifyS: number;
}

export const FULL: Sizes = {
  loadS: 10,
  warmupS: 3,
  latencyS: 5,
  connections: 32,
  deepDepth: 100_000,
  rebuildEvents: 200_000,
  rebuildTenants: 100,
  appendWriters: 16,
  appendRounds: 2,
  webhookRate: 200,
  webhookS: 60,
  notifyS: 10,
};

export const QUICK: Sizes = {
  loadS: 1.5,
  warmupS: 0.5,
  latencyS: 1,
  connections: 32,
  deepDepth: 5_000,
  rebuildEvents: 5_000,
  rebuildTenants: 10,
  appendWriters: 16,
  appendRounds: 1,
  webhookRate: 200,
  webhookS: 3,
  notifyS: 1,
};

export interface Ctx {
  sizes: Sizes;
  dbs: BenchDatabases;
  service(): Promise<ServiceProcess>;
  boot(): Promise<Bootstrapper>;
  tenant(name: string): Promise<Tenant>;
  /** the bare Express baseline server, answering with the JSON of GET /api/conversations/{id} */
  bare(): Promise<{ url: string; pid: number }>;
  /** a conversation of the main tenant with a few parts, and its JSON as our route renders it */
  sampleConversation(): Promise<{ id: string; json: unknown }>;
  /** a second service process on the same database with extra settings (stopped with the main one) */
  serviceWith(name: string, env: Record<string, string>): Promise<ServiceProcess>;
  log(msg: string): void;
}

export interface Scenario {
  name: string;
  /** other names that select it (the memory row comes from the write run) */
  aliases?: string[];
  needsService: boolean;
  run(ctx: Ctx): Promise<Row[]>;
}

export const auth = (t: Tenant) => ({ authorization: `Bearer ${t.key}` });

type Measured = LoadResult & { cpu?: ReturnType<CpuMeter['stop']> };

/** A load run in its own process; with `pid`, the CPU that process and Postgres spent on it, per 2xx answer. */
export async function load(ctx: Ctx, url: string, generator: Generator, over: Partial<LoadInput> = {}, pid: number | null = null): Promise<Measured> {
  const input: LoadInput = { url, connections: ctx.sizes.connections, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS, generator, ...over };
  const meter = cpuMeter(pid);
  const r = await runTask<LoadResult>('load.ts', input, { timeoutMs: (input.durationS + input.warmupS) * 1000 + 120_000 });
  return { ...r, cpu: meter.stop(r.ok + r.warmupOk) };
}

/** What a load run reports beside its figure: errors, statuses, latency. */
export function loadDetails(r: Measured) {
  return { ...(r.cpu ? { cpu: r.cpu } : {}), ok: r.ok, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, seconds: r.durationS, statuses: r.statuses, latency_ms: r.latencyMs, ...(r.sampleError ? { sample_error: r.sampleError } : {}) };
}

/** Where the CPU went, per 2xx answer: the evidence behind a ratio. */
function cpuText(r: Measured, label: string): string | null {
  const u = r.cpu?.perUnit;
  if (!u || u.serviceMs === null) return null;
  return `${label} ${u.serviceMs.toFixed(2)} ms CPU${u.postgresMs !== null && u.postgresMs > 0.005 ? ` + Postgres ${u.postgresMs.toFixed(2)} ms` : ''}`;
}

export function loadNote(r: Measured, base?: Measured, baseLabel = 'baseline'): string | undefined {
  const parts: string[] = [];
  const cpu = [cpuText(r, 'service'), base ? cpuText(base, baseLabel) : null].filter(Boolean);
  if (cpu.length) parts.push(`per request: ${cpu.join('; ')}`);
  if (r.non2xx !== 0 || r.errors !== 0) {
    parts.push(`${r.non2xx} non-2xx answers and ${r.errors} errors during the run${r.sampleError ? ` (first: ${r.sampleError.slice(0, 160)})` : ''}; only 2xx answers are counted`);
  }
  return parts.length ? parts.join('; ') : undefined;
}

// ---------------------------------------------------------------- read

const read: Scenario = {
  name: 'read',
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const main = await ctx.tenant('main');
    const conv = await ctx.sampleConversation();
    const bare = await ctx.bare();
    const path = `/api/conversations/${conv.id}`;
    const ours = await load(ctx, svc.url, { kind: 'static', method: 'GET', path, headers: auth(main) }, {}, svc.pid);
    const base = await load(ctx, bare.url, { kind: 'static', method: 'GET', path }, {}, bare.pid);
    return [
      row({
        scenario: 'read',
        figure: `GET /api/conversations/{id} (API key, ${(conv.json as { parts: unknown[] }).parts.length} parts), ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: ours.rps,
        baselineLabel: 'bare Express, same JSON',
        baseline: base.rps,
        target: { kind: 'ratio>=', value: 0.5 },
        note: loadNote(ours, base, 'bare Express'),
        details: { ours: loadDetails(ours), baseline: loadDetails(base), response_bytes: JSON.stringify(conv.json).length },
      }),
    ];
  },
};

// ---------------------------------------------------------------- write (+ memory)

const write: Scenario = {
  name: 'write',
  aliases: ['memory'],
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const main = await ctx.tenant('main');
    // Bootstrapped before the memory window: each sign-in runs scrypt (32 MiB, up to 4 at once on the
    // libuv pool), which is not what this scenario measures. One at a time, to keep the spike small.
    const spread: Tenant[] = [];
    for (let i = 0; i < 8; i++) spread.push(await ctx.tenant(`writer-${i + 1}`));
    const before = svc.memory();
    const resetWorked = svc.resetPeak();
    const stopSampling = svc.sampleMemory(100);
    const ours = await load(ctx, svc.url, { kind: 'create-conversation', path: '/api/conversations', tenants: [{ headers: auth(main), channelId: main.channelId }], contacts: 1000 }, {}, svc.pid);
    // The same load spread over 8 workspaces: writes of one tenant serialise on its append
    // lock, so this separates what that lock costs from what each request costs.
    const multi = await load(ctx, svc.url, { kind: 'create-conversation', path: '/api/conversations', tenants: spread.map((t) => ({ headers: auth(t), channelId: t.channelId })), contacts: 1000 }, {}, svc.pid);
    const mem = stopSampling();
    const base = await runTask<PgInsertResult>(
      'pg-insert.ts',
      { url: ctx.dbs.mainUrl, concurrency: ctx.sizes.connections, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS } satisfies PgInsertInput,
      { timeoutMs: (ctx.sizes.loadS + ctx.sizes.warmupS) * 1000 + 60_000 },
    );
    const peak = resetWorked && Number.isFinite(mem.hwmMiB) ? Math.max(mem.hwmMiB, mem.peakRssMiB) : mem.peakRssMiB;
    return [
      row({
        scenario: 'write',
        figure: `POST /api/conversations (API key, fresh Idempotency-Key each), ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: ours.rps,
        baselineLabel: `pg BEGIN/INSERT/COMMIT ×${ctx.sizes.connections}`,
        baseline: base.tps,
        target: { kind: 'ratio>=', value: 0.5 },
        note: loadNote(ours),
        details: { ours: loadDetails(ours), baseline: base },
      }),
      row({
        scenario: 'write, 8 tenants',
        figure: `the same POSTs spread over 8 workspaces (8 keys), ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: multi.rps,
        baselineLabel: `pg BEGIN/INSERT/COMMIT ×${ctx.sizes.connections}`,
        baseline: base.tps,
        target: { kind: 'none' },
        note: loadNote(multi),
        details: { ours: loadDetails(multi) },
      }),
      row({
        scenario: 'memory',
        figure: 'peak RSS of the service during the write runs',
        unit: 'MiB',
        ours: peak,
        baselineLabel: '',
        baseline: null,
        target: { kind: 'ours<=', value: 250 },
        note: `RSS ${before ? before.rssMiB.toFixed(0) : '?'} MiB before the runs, ${(svc.memory()?.rssMiB ?? NaN).toFixed(0)} MiB after`,
        details: { rss_before_mib: before?.rssMiB ?? null, sampled_peak_rss_mib: mem.peakRssMiB, vm_hwm_mib: mem.hwmMiB, hwm_reset_before_run: resetWorked, samples: mem.samples, rss_after_mib: svc.memory()?.rssMiB ?? null },
      }),
    ];
  },
};

// ---------------------------------------------------------------- inbound

const inbound: Scenario = {
  name: 'inbound',
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const main = await ctx.tenant('main');
    const bare = await ctx.bare();
    const path = `/api/channels/${main.channelId}/inbound`;
    const gen: Generator = { kind: 'inbound', path, secret: main.channelSecret, contacts: 1000 };
    const ours = await load(ctx, svc.url, gen, {}, svc.pid);
    const base = await load(ctx, bare.url, gen, {}, bare.pid);
    return [
      row({
        scenario: 'inbound',
        figure: `signed POST /api/channels/{id}/inbound, new threads, ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: ours.rps,
        baselineLabel: 'bare Express, same requests',
        baseline: base.rps,
        target: { kind: 'ratio>=', value: 0.3 },
        note: loadNote(ours, base, 'bare Express'),
        details: { ours: loadDetails(ours), baseline: loadDetails(base) },
      }),
    ];
  },
};

// ---------------------------------------------------------------- deep page

const deepPage: Scenario = {
  name: 'deep-page',
  aliases: ['deep'],
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const t = await ctx.tenant('deep');
    const depth = ctx.sizes.deepDepth;
    const seedRows = depth + 1000;
    const perPage = 20;
    const boot = await ctx.boot();
    // Seeded straight into the read model: a read benchmark needs the rows, not their history.
    const seedStarted = performance.now();
    await boot.db.raw(
      `INSERT INTO conversations (tenant_id, id, channel_id, contact_id, external_id, subject, state, snoozed_until, assignee_id, team_id, parts_count, created_at, updated_at, last_part_at)
       SELECT ?::uuid, gen_random_uuid(), ?::uuid, gen_random_uuid(), 'deep-' || g, 'Order ' || g,
              (ARRAY['open','closed','snoozed'])[1 + g % 3], NULL, NULL, NULL, 1 + g % 7,
              base - make_interval(secs => g * 60), base - make_interval(secs => g * 60 - (g % 50)), base - make_interval(secs => g * 60 - (g % 50))
         FROM generate_series(1, ?) AS g, (SELECT date_trunc('second', now()) AS base) b`,
      [t.workspaceId, t.channelId, seedRows],
    );
    await boot.db.raw('ANALYZE conversations');
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    // The cursor a client holds after walking `depth` rows: minted with the route's own
    // encoder from the real sort key and id of the row at that depth (default sort: updated_at desc).
    const at = (await boot.db.raw(`SELECT updated_at, id FROM conversations WHERE tenant_id = ? ORDER BY updated_at DESC, id DESC OFFSET ? LIMIT 1`, [t.workspaceId, depth - 1])).rows[0] as {
      updated_at: Date;
      id: string;
    };
    const cursor = encodeCursor({ sort: 'updated_at', order: 'desc', key: isoKey(at.updated_at), id: at.id });
    const firstPath = `/api/conversations?per_page=${perPage}`;
    const deepPath = `${firstPath}&starting_after=${cursor}`;
    // The deep page must be the page right after row `depth` (checked once, not timed).
    const check = await boot.http('GET', deepPath, undefined, auth(t));
    if (check.status !== 200 || check.body?.data?.length !== perPage) throw new Error(`deep page answered ${check.status}: ${check.text.slice(0, 300)}`);
    const latency = { connections: 1, durationS: ctx.sizes.latencyS, warmupS: ctx.sizes.warmupS };
    const first = await load(ctx, svc.url, { kind: 'static', method: 'GET', path: firstPath, headers: auth(t) }, latency, svc.pid);
    const deep = await load(ctx, svc.url, { kind: 'static', method: 'GET', path: deepPath, headers: auth(t) }, latency, svc.pid);
    const control = await runTask<OffsetResult>(
      'pg-offset.ts',
      { url: ctx.dbs.mainUrl, tenantId: t.workspaceId, depth, perPage, durationS: ctx.sizes.latencyS, warmupS: ctx.sizes.warmupS } satisfies OffsetInput,
      { timeoutMs: 120_000 + ctx.sizes.latencyS * 4000 },
    );
    const note = `${seedRows.toLocaleString('en-US')} conversations bulk-INSERTed straight into the conversations read model of one tenant (${seedSeconds.toFixed(1)} s), not through the API; cursor minted with encodeCursor for the row at depth ${depth.toLocaleString('en-US')}; 1 connection, per_page=${perPage}`;
    return [
      row({
        scenario: 'deep-page',
        figure: `p50 GET /api/conversations after ${depth.toLocaleString('en-US')} rows (keyset cursor)`,
        unit: 'ms',
        ours: deep.latencyMs.p50,
        baselineLabel: 'first page p50',
        baseline: first.latencyMs.p50,
        target: { kind: 'ratio<=', value: 1.5 },
        note,
        details: { deep: loadDetails(deep), first: loadDetails(first), seed_rows: seedRows, depth },
      }),
      row({
        scenario: 'deep-page control',
        figure: `p50 pg OFFSET ${depth.toLocaleString('en-US')} LIMIT ${perPage + 1} (no keyset)`,
        unit: 'ms',
        ours: control.deep.p50,
        baselineLabel: 'OFFSET 0 p50',
        baseline: control.first.p50,
        target: { kind: 'ratio>=', value: 10 },
        note: 'shows what OFFSET pagination would cost at this depth, on the same rows',
        details: { ...control },
      }),
    ];
  },
};

// ---------------------------------------------------------------- append

const append: Scenario = {
  name: 'append',
  needsService: false,
  async run(ctx) {
    const scratch = await ctx.dbs.scratch('append');
    if (scratch.url === null) return [unavailable('append', 'events/s appended, 16 writers over 16 tenants', scratch.reason)];
    const url = scratch.url;
    try {
      const one = (store: AppendInput['store']) =>
        runTask<AppendResult>(
          'append.ts',
          { url, store, writers: ctx.sizes.appendWriters, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS } satisfies AppendInput,
          { timeoutMs: (ctx.sizes.loadS + ctx.sizes.warmupS) * 1000 + 120_000 },
        );
      const ours: AppendResult[] = [];
      const peer: AppendResult[] = [];
      for (let round = 0; round < ctx.sizes.appendRounds; round++) {
        // Alternate who goes first, so neither always gets the warmer (or more bloated) database.
        if (round % 2 === 0) {
          ours.push(await one('ours'));
          peer.push(await one('emmett'));
        } else {
          peer.push(await one('emmett'));
          ours.push(await one('ours'));
        }
      }
      const w = ctx.sizes.appendWriters;
      // BENCH_EXPERIMENTS=1: also our store with its NOTIFY moved out of the append transaction (see append.ts).
      const quiet = process.env.BENCH_EXPERIMENTS === '1' ? [await one('ours-quiet')] : [];
      return [
        row({
          scenario: 'append',
          figure: `events/s appended, ${w} writers over ${w} tenants (1–3 events per append), median of ${ours.length}`,
          unit: 'events/s',
          ours: median(ours.map((r) => r.eventsPerSecond)),
          baselineLabel: 'emmett-postgresql',
          baseline: median(peer.map((r) => r.eventsPerSecond)),
          target: { kind: 'ratio>=', value: 1.0 },
          details: { ours, emmett: peer },
        }),
        ...quiet.map((q) =>
          row({
            scenario: 'append (experiment)',
            figure: 'the same, es_append without its in-transaction pg_notify, NOTIFY sent after commit (coalesced)',
            unit: 'events/s',
            ours: q.eventsPerSecond,
            baselineLabel: 'emmett-postgresql',
            baseline: median(peer.map((r) => r.eventsPerSecond)),
            target: { kind: 'none' },
            details: { experiment: q },
          }),
        ),
      ];
    } finally {
      await scratch.drop();
    }
  },
};

// ---------------------------------------------------------------- rebuild

const rebuild: Scenario = {
  name: 'rebuild',
  needsService: false,
  async run(ctx) {
    const scratch = await ctx.dbs.scratch('rebuild');
    if (scratch.url === null) return [unavailable('rebuild', 'events/s of rebuildReadModels', scratch.reason)];
    const url = scratch.url;
    try {
      const step = (input: RebuildInput) => runTask<RebuildStepResult>('rebuild.ts', input, { timeoutMs: 600_000 });
      const seeded = await step({ step: 'seed', url, events: ctx.sizes.rebuildEvents, tenants: ctx.sizes.rebuildTenants });
      ctx.log(`rebuild: seeded ${seeded.events} events in ${seeded.seconds.toFixed(1)} s`);
      const scanCpu = cpuMeter(null);
      const scan = { ...(await step({ step: 'scan', url })), postgresCpuSeconds: (scanCpu.stop().postgresMs ?? NaN) / 1000 };
      const rebuildCpu = cpuMeter(null);
      const ours = { ...(await step({ step: 'rebuild', url })), postgresCpuSeconds: (rebuildCpu.stop().postgresMs ?? NaN) / 1000 };
      const cpu = (r: RebuildStepResult & { postgresCpuSeconds: number }) =>
        `${r.seconds.toFixed(1)} s wall: ${r.workerCpuSeconds?.toFixed(1) ?? '?'} s Node CPU${Number.isFinite(r.postgresCpuSeconds) ? ` + ${r.postgresCpuSeconds.toFixed(1)} s Postgres CPU` : ''}`;
      return [
        row({
          scenario: 'rebuild',
          figure: `events/s of rebuildReadModels over ${ours.events.toLocaleString('en-US')} events, ${ctx.sizes.rebuildTenants} tenants`,
          unit: 'events/s',
          ours: ours.eventsPerSecond,
          baselineLabel: 'plain keyset SELECT scan',
          baseline: scan.eventsPerSecond,
          target: { kind: 'ratio>=', value: 0.2 },
          note: `rebuild ${cpu(ours)}; scan ${cpu(scan)}; events seeded through PostgresEventStore.append (${seeded.seconds.toFixed(1)} s): ${Object.entries(seeded.byType ?? {})
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
          details: { seed: seeded, scan, rebuild: ours },
        }),
      ];
    } finally {
      await scratch.drop();
    }
  },
};

// ---------------------------------------------------------------- webhook latency

const webhook: Scenario = {
  name: 'webhook',
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const boot = await ctx.boot();
    const t = await ctx.tenant('hooks');
    const receiver = await startDaemon<{ url: string }>('webhook-receiver.ts', {});
    try {
      const created = await boot.http('POST', '/api/webhooks', { url: receiver.ready.url, event_names: ['conversation_part.created'], description: 'bench receiver' }, auth(t));
      if (created.status === 404) {
        return [unavailable('webhook', 'append → receiver 2xx latency', 'POST /api/webhooks is not available in this build')];
      }
      if (created.status !== 201) throw new Error(`POST /api/webhooks answered ${created.status}: ${created.text.slice(0, 300)}`);
      await receiver.call({ cmd: 'secret', secret: created.body.secret } satisfies ReceiverCall);
      const conversationId = randomUUID();
      const drive = (rate: number, count: number) =>
        runTask<AppenderResult>(
          'webhook-appender.ts',
          { mode: 'append', url: ctx.dbs.mainUrl, tenantId: t.workspaceId, conversationId, channelId: t.channelId, rate, count } satisfies AppenderInput,
          { timeoutMs: (count / rate) * 1000 + 120_000 },
        ) as Promise<Extract<AppenderResult, { mode: 'append' }>>;
      const collect = async (want: number, graceMs: number): Promise<Arrival[]> => {
        const got: Arrival[] = [];
        const until = Date.now() + graceMs;
        for (;;) {
          got.push(...(await receiver.call<Arrival[]>({ cmd: 'take' } satisfies ReceiverCall)).filter((a) => a.tenant === t.workspaceId));
          if (new Set(got.map((a) => a.seq)).size >= want || Date.now() > until) return got;
          await sleep(100);
        }
      };
      // Warm-up: the endpoint reaches the dispatcher's view through the log; wait until deliveries flow.
      const warm = await drive(50, 20);
      await collect(warm.appended.length, 30_000);
      const count = Math.round(ctx.sizes.webhookRate * ctx.sizes.webhookS);
      const run = await drive(ctx.sizes.webhookRate, count);
      const arrivals = await collect(run.appended.length, 30_000);
      const firstArrival = new Map<number, Arrival>();
      for (const a of arrivals) if (!firstArrival.has(a.seq)) firstArrival.set(a.seq, a);
      const fromAppend: number[] = [];
      const fromCommit: number[] = [];
      for (const a of run.appended) {
        const got = firstArrival.get(a.seq);
        if (!got) continue;
        fromAppend.push(got.at - a.startedAt);
        fromCommit.push(got.at - a.committedAt);
      }
      const lat = summarize(fromAppend);
      const notify = (await runTask<AppenderResult>(
        'webhook-appender.ts',
        { mode: 'notify', url: ctx.dbs.mainUrl, rate: ctx.sizes.webhookRate, count: Math.round(ctx.sizes.webhookRate * ctx.sizes.notifyS) } satisfies AppenderInput,
        { timeoutMs: ctx.sizes.notifyS * 1000 + 60_000 },
      )) as Extract<AppenderResult, { mode: 'notify' }>;
      const missing = run.appended.length - fromAppend.length;
      const details = {
        appended: run.appended.length,
        append_failures: run.failures,
        delivered: fromAppend.length,
        missing,
        duplicates: arrivals.length - firstArrival.size,
        signatures_verified: arrivals.filter((a) => a.signed).length,
        drive_seconds: run.seconds,
        from_append_start_ms: lat,
        from_commit_ms: summarize(fromCommit),
        notify_baseline: notify,
      };
      const label = 'bare pg NOTIFY→LISTEN';
      const note = `${ctx.sizes.webhookRate} events/s for ${ctx.sizes.webhookS} s appended through PostgresEventStore.append; latency from the append call to the receiver having the whole body${missing ? `; ${missing} never arrived within 30 s` : ''}`;
      return [
        row({
          scenario: 'webhook',
          figure: `p99 append → 127.0.0.1 receiver 2xx at ${ctx.sizes.webhookRate}/s`,
          unit: 'ms',
          ours: missing ? null : lat.p99,
          baselineLabel: `${label} p99`,
          baseline: notify.latencyMs.p99,
          target: { kind: 'ours<=', value: 100 },
          note,
          details,
          ...(missing ? { status: 'fail' as const } : {}),
        }),
        row({
          scenario: 'webhook',
          figure: `p50 append → 127.0.0.1 receiver 2xx at ${ctx.sizes.webhookRate}/s`,
          unit: 'ms',
          ours: lat.p50,
          baselineLabel: `${label} p50`,
          baseline: notify.latencyMs.p50,
          target: { kind: 'none' },
        }),
      ];
    } finally {
      await receiver.stop();
    }
  },
};

// ---------------------------------------------------------------- calibration

/**
 * Not a figure of ours: what this machine allows any HTTP handler that makes N
 * sequential Postgres round trips (raw pg, SELECT $1, nothing else), against the
 * same bare handler with none. It bounds what the read and write ratios can be
 * here, whatever the service does: a round trip costs both the handler and
 * Postgres CPU, and two cores are shared by the load generator, the handler and Postgres.
 */
const calibrate: Scenario = {
  name: 'calibrate',
  // only for the sample JSON (the same document the read baseline answers with)
  needsService: true,
  async run(ctx) {
    const json = (await ctx.sampleConversation()).json;
    const rows: Row[] = [];
    const bare = await ctx.bare();
    const base = await load(ctx, bare.url, { kind: 'static', method: 'GET', path: '/calibrate' }, {}, bare.pid);
    for (const roundTrips of [1, 3, 15]) {
      const d = await startDaemon<{ url: string }>('bare-server.ts', { json, roundTrips, databaseUrl: ctx.dbs.mainUrl } satisfies BareInput);
      try {
        const r = await load(ctx, d.ready.url, { kind: 'static', method: 'GET', path: '/calibrate' }, {}, d.pid);
        rows.push(
          row({
            scenario: 'calibration',
            figure: `bare Express + ${roundTrips} sequential pg round trip${roundTrips > 1 ? 's' : ''} per request, ${ctx.sizes.connections} conns`,
            unit: 'req/s',
            ours: r.rps,
            baselineLabel: 'bare Express',
            baseline: base.rps,
            target: { kind: 'none' },
            details: { calibrated: loadDetails(r), bare: loadDetails(base) },
          }),
        );
      } finally {
        await d.stop();
      }
    }
    return rows;
  },
};

/** In the order they run: the service scenarios share one service process; the store scenarios need none. */
export const SCENARIOS: Scenario[] = [write, read, rls, inbound, deepPage, webhook, calibrate, append, rebuild];

/** Every row name the full table carries (the smoke test checks each is there). */
export const ROW_NAMES = ['read', 'write', 'write, 8 tenants', 'memory', 'rls read', 'rls write', 'inbound', 'deep-page', 'deep-page control', 'append', 'rebuild', 'webhook', 'calibration'];
/** Rows only BENCH_EXPERIMENTS=1 adds (not expected in every result). */
export const EXPERIMENT_ROWS = ['append (experiment)'];

export const scenarioNames = (): string[] => SCENARIOS.flatMap((s) => [s.name, ...(s.aliases ?? [])]);

export function pick(names: string[]): Scenario[] {
  if (names.length === 0) return SCENARIOS;
  const unknown = names.filter((n) => !scenarioNames().includes(n));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${scenarioNames().join(', ')}`);
  return SCENARIOS.filter((s) => names.includes(s.name) || (s.aliases ?? []).some((a) => names.includes(a)));
}

export async function sampleConversation(boot: Bootstrapper, main: Tenant): Promise<{ id: string; json: unknown }> {
  const created = await boot.expect(
    201,
    'POST',
    '/api/conversations',
    { channel_id: main.channelId, body: 'Hello, my order #4411 has not arrived yet.', subject: 'Where is my order?', contact: { external_id: 'bench-read-contact', name: 'Grace Hopper', email: 'grace@bench.example.com' } },
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
