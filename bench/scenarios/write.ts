// write: POST /api/conversations, one workspace and then spread over 8, against
// raw single-row INSERT transactions through pg. The same runs give the peak
// RSS of the service (memory) and the CPU the service and Postgres spend per
// write (cpu per write). With an EventStoreDB server the same runs are made
// against a service keeping its log there (the `(eventstoredb)` rows), against
// the same baseline run.
import { runTask } from '../lib/child.js';
import { cpuMeter } from '../lib/cpu.js';
import { row, type Target } from '../lib/report.js';
import type { Tenant } from '../lib/bootstrap.js';
import type { PgInsertInput, PgInsertResult } from '../workers/pg-insert.js';
import { auth, load, loadDetails, loadNote, onEachSide, type Ctx, type Scenario, type StoreSide } from './shared.js';

/** The two write runs against one side's service, and its memory over both. */
async function measure(ctx: Ctx, side: StoreSide) {
  const svc = await side.service();
  const main = await side.tenant('main');
  // Bootstrapped before the memory window: each sign-in runs scrypt (32 MiB, up to 4 at once on the
  // libuv pool), which is not what this scenario measures. One at a time, to keep the spike small.
  const bootStarted = performance.now();
  const spread: Tenant[] = [];
  for (let i = 0; i < 8; i++) spread.push(await side.tenant(`writer-${i + 1}`));
  ctx.log(`${side.row('write')}: 8 workspaces bootstrapped in ${((performance.now() - bootStarted) / 1000).toFixed(1)} s`);
  await ctx.loader(); // started before the window, so its start-up is not in the first run's CPU
  const before = svc.memory();
  const resetWorked = svc.resetPeak();
  const stopSampling = svc.sampleMemory(100);
  const ours = await load(
    ctx,
    svc.url,
    { kind: 'create-conversation', path: '/api/conversations', tenants: [{ headers: auth(main), channelId: main.channelId }], contacts: 1000 },
    {},
    svc.pid,
    side.storePid,
  );
  // The same load spread over 8 workspaces: writes of one tenant serialise on its append
  // lock, so this separates what that lock costs from what each request costs.
  const multi = await load(
    ctx,
    svc.url,
    { kind: 'create-conversation', path: '/api/conversations', tenants: spread.map((t) => ({ headers: auth(t), channelId: t.channelId })), contacts: 1000 },
    {},
    svc.pid,
    side.storePid,
  );
  const mem = stopSampling();
  const peak = resetWorked && Number.isFinite(mem.hwmMiB) ? Math.max(mem.hwmMiB, mem.peakRssMiB) : mem.peakRssMiB;
  return { ours, multi, before, mem, peak, resetWorked, after: svc.memory()?.rssMiB ?? null };
}

export const write: Scenario = {
  name: 'write',
  aliases: ['memory', 'cpu'],
  needsService: true,
  onEachStore: true,
  async run(ctx) {
    const sides = await onEachSide(ctx, 'write', (side) => measure(ctx, side));
    const baseCpu = cpuMeter(null);
    const base = await runTask<PgInsertResult>(
      'pg-insert.ts',
      { url: ctx.dbs.mainUrl, concurrency: ctx.sizes.connections, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS } satisfies PgInsertInput,
      { timeoutMs: (ctx.sizes.loadS + ctx.sizes.warmupS) * 1000 + 60_000 },
    );
    const basePg = baseCpu.stop().postgresMs;
    const basePerTx = base.allTransactions > 0 && basePg !== null ? (base.clientCpuMs + basePg) / base.allTransactions : null;

    return [
      ...sides.flatMap(({ side, out: m }) => {
        const postgres = side.store === 'postgres';
        // The rows on EventStoreDB are informational: their figures sit beside the Postgres rows, no target of their own.
        const target = (t: Target): Target => (postgres ? t : { kind: 'none' });
        const where = postgres ? '' : ', log on EventStoreDB';
        // CPU per write: the service process and every process of the Postgres cluster (and the EventStoreDB
        // server, where the log is there and the server runs here), over the one-workspace run (warm-up
        // included), divided by its 2xx answers.
        const per = m.ours.cpu?.perUnit;
        const esMs = per?.eventstoreMs ?? null;
        const cpuPerWrite = per && per.serviceMs !== null && per.postgresMs !== null ? per.serviceMs + per.postgresMs + (esMs ?? 0) : null;
        const writes = m.ours.ok + m.ours.warmupOk;
        const esText = postgres
          ? ''
          : esMs !== null
            ? ` + EventStoreDB ${esMs.toFixed(2)} ms`
            : ' (EventStoreDB CPU not counted: no server process found here)';
        return [
          row({
            scenario: side.row('write'),
            figure: `POST /api/conversations (API key, fresh Idempotency-Key each), one workspace, ${ctx.sizes.connections} conns${where}`,
            unit: 'req/s',
            ours: m.ours.rps,
            baselineLabel: `pg BEGIN/INSERT/COMMIT ×${ctx.sizes.connections}`,
            baseline: base.tps,
            target: target({ kind: 'ratio>=', value: 0.1 }),
            note: loadNote(m.ours),
            details: { ours: loadDetails(m.ours), baseline: base },
          }),
          row({
            scenario: side.row('write, 8 workspaces'),
            figure: `the same POSTs spread over 8 workspaces (8 keys), ${ctx.sizes.connections} conns${where}`,
            unit: 'req/s',
            ours: m.multi.rps,
            baselineLabel: `pg BEGIN/INSERT/COMMIT ×${ctx.sizes.connections}`,
            baseline: base.tps,
            target: target({ kind: 'ratio>=', value: 0.12 }),
            note: loadNote(m.multi),
            details: { ours: loadDetails(m.multi) },
          }),
          row({
            scenario: side.row('memory'),
            figure: `peak RSS of the service during both write runs${where}`,
            unit: 'MiB',
            ours: m.peak,
            baselineLabel: '',
            baseline: null,
            target: target({ kind: 'ours<=', value: 160 }),
            note: `RSS ${m.before ? m.before.rssMiB.toFixed(0) : '?'} MiB before the runs, ${(m.after ?? NaN).toFixed(0)} MiB after`,
            details: {
              rss_before_mib: m.before?.rssMiB ?? null,
              sampled_peak_rss_mib: m.mem.peakRssMiB,
              vm_hwm_mib: m.mem.hwmMiB,
              hwm_reset_before_run: m.resetWorked,
              samples: m.mem.samples,
              rss_after_mib: m.after,
            },
          }),
          row({
            scenario: side.row('cpu per write'),
            figure: `service + Postgres${postgres ? '' : ' + EventStoreDB'} CPU per 2xx POST /api/conversations (the one-workspace run)`,
            unit: 'ms',
            ours: cpuPerWrite,
            baselineLabel: 'pg client + Postgres CPU per INSERT transaction',
            baseline: basePerTx,
            target: target({ kind: 'ours<=', value: 1.5 }),
            note:
              cpuPerWrite === null
                ? 'Postgres CPU is not visible from here (it runs on another machine)'
                : `${writes.toLocaleString('en-US')} writes (warm-up included): service ${per!.serviceMs!.toFixed(2)} ms + Postgres ${per!.postgresMs!.toFixed(2)} ms${esText} each; baseline ${base.allTransactions.toLocaleString('en-US')} transactions: client ${(base.clientCpuMs / base.allTransactions).toFixed(3)} ms + Postgres ${((basePg ?? NaN) / base.allTransactions).toFixed(3)} ms each`,
            details: {
              writes,
              service_ms_per_write: per?.serviceMs ?? null,
              postgres_ms_per_write: per?.postgresMs ?? null,
              ...(postgres ? {} : { eventstoredb_ms_per_write: esMs }),
              baseline_transactions: base.allTransactions,
              baseline_client_cpu_ms: base.clientCpuMs,
              baseline_postgres_cpu_ms: basePg,
            },
          }),
        ];
      }),
      ...sides.failed,
    ];
  },
};
