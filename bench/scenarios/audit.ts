// audit: what the hash chain costs the write path, and how fast the audit
// export streams.
//   audit:        the write scenario's load (POST /api/conversations, one workspace) against a process with
//                 the chain on (the default) and against another on the same database with AUDIT_CHAIN=off (a
//                 bench-only switch), six runs each (two quick), interleaved; the ratio is of the medians.
//   audit export: events/s of the export's stream (exportLines: paged reads, one NDJSON line per event as
//                 stored, the signed checkpoint) over one workspace of auditExportEvents events seeded in a
//                 scratch database, into a sink with back-pressure, against the rebuild scenario's plain
//                 keyset SELECT scan of the same events; the note gives the export worker's peak RSS growth.
import { runTask } from '../lib/child.js';
import { median } from '../lib/stats.js';
import { row, unavailable, type Row } from '../lib/report.js';
import type { AuditExportInput, AuditExportResult } from '../workers/audit-export.js';
import type { RebuildInput, RebuildStepResult } from '../workers/rebuild.js';
import { auth, load, loadDetails, type Ctx, type Measured, type Scenario } from './shared.js';

async function writeRatio(ctx: Ctx): Promise<Row> {
  // Both sides are second processes, alike but for AUDIT_CHAIN: the main service (started first) holds the
  // dispatcher's lock and reads every appended event, and measured against a process without that work either
  // side would gain or lose by it, not by the chain (docs/performance.md). BENCH_AUDIT_AA=1 turns the chain on
  // in both: the row then reads what this method gives when the chain costs nothing (its noise).
  const aa = process.env.BENCH_AUDIT_AA === '1';
  await ctx.service();
  const on = await ctx.serviceWith('chain-on', { AUDIT_CHAIN: 'on' });
  const off = await ctx.serviceWith('chain-off', { AUDIT_CHAIN: aa ? 'on' : 'off' });
  // A workspace each: the chain-off one's log is not a chain, and the on one's must stay one.
  const [tOn, tOff] = [await ctx.tenant('audit-on'), await ctx.tenant('audit-off')];
  const gen = (t: typeof tOn) => ({
    kind: 'create-conversation' as const,
    path: '/api/conversations',
    tenants: [{ headers: auth(t), channelId: t.channelId }],
    contacts: 1000,
  });
  const runs: { on: Measured[]; off: Measured[] } = { on: [], off: [] };
  const runOn = async () => runs.on.push(await load(ctx, on.url, gen(tOn), {}, on.pid));
  const runOff = async () => runs.off.push(await load(ctx, off.url, gen(tOff), {}, off.pid));
  try {
    // Interleaved (off, on, on, off, then on, off, off, on, ...): neither side always meets a warmer
    // Postgres, a longer log or a busier neighbour.
    for (let r = 0; r < ctx.sizes.auditRounds; r++) {
      const [a, b] = r % 2 === 0 ? [runOff, runOn] : [runOn, runOff];
      await a();
      await b();
      await b();
      await a();
    }
  } finally {
    await ctx.stopServiceWith('chain-on');
    await ctx.stopServiceWith('chain-off');
  }
  // Medians: one run that met a neighbour's burst (a run here varies by ±20 %) moves neither side.
  const rate = (ms: Measured[]) => median(ms.map((m) => m.rps));
  const list = (ms: Measured[]) => ms.map((m) => m.rps.toFixed(0)).join(', ');
  const ms = (xs: (number | null | undefined)[]) => {
    const known = xs.filter((x): x is number => typeof x === 'number');
    return known.length ? `${median(known).toFixed(2)} ms` : 'n/a';
  };
  const cpu = (rs: Measured[]) => `service ${ms(rs.map((m) => m.cpu?.perUnit?.serviceMs))} + Postgres ${ms(rs.map((m) => m.cpu?.perUnit?.postgresMs))}`;
  const failures = (all: typeof runs) => {
    const bad = [...all.on, ...all.off].reduce((n, m) => n + m.non2xx + m.errors, 0);
    return bad ? `; ${bad} non-2xx answers or errors in all (only 2xx answers count; details has each run's)` : '';
  };
  return row({
    scenario: 'audit',
    figure: `POST /api/conversations with the hash chain on vs AUDIT_CHAIN=${aa ? 'on (BENCH_AUDIT_AA: both on)' : 'off'}, one workspace, ${ctx.sizes.connections} conns, median of ${runs.on.length} runs each`,
    unit: 'req/s',
    ours: rate(runs.on),
    baselineLabel: `same, AUDIT_CHAIN=${aa ? 'on' : 'off'}`,
    baseline: rate(runs.off),
    target: { kind: 'ratio>=', value: 0.9 },
    note: `CPU per request (medians over the runs): on ${cpu(runs.on)}, off ${cpu(runs.off)}; runs in order: on ${list(runs.on)}, off ${list(runs.off)} req/s${failures(runs)}`,
    details: { aa, on: runs.on.map(loadDetails), off: runs.off.map(loadDetails) },
  });
}

async function exportRate(ctx: Ctx): Promise<Row> {
  const figure = `events/s of the audit export's stream over one workspace of ${ctx.sizes.auditExportEvents.toLocaleString('en-US')} events`;
  const scratch = await ctx.dbs.scratch('audit-export');
  if (scratch.url === null) return unavailable('audit export', figure, scratch.reason);
  const url = scratch.url;
  try {
    const step = (input: RebuildInput) => runTask<RebuildStepResult>('rebuild.ts', input, { timeoutMs: 1_200_000 });
    const seeded = await step({ step: 'seed', url, events: ctx.sizes.auditExportEvents, tenants: 1 });
    ctx.log(`audit export: seeded ${seeded.events} events (chained) in ${seeded.seconds.toFixed(1)} s`);
    const scan = await step({ step: 'scan', url });
    const ours = await runTask<AuditExportResult>('audit-export.ts', { url } satisfies AuditExportInput, { timeoutMs: 1_200_000 });
    return row({
      scenario: 'audit export',
      figure,
      unit: 'events/s',
      ours: ours.eventsPerSecond,
      baselineLabel: "the rebuild's plain keyset SELECT scan",
      baseline: scan.eventsPerSecond,
      // Issue 44: the export streams at least 0.8 of a plain scan of the same events.
      target: { kind: 'ratio>=', value: 0.8 },
      note:
        `${ours.events.toLocaleString('en-US')} lines, ${(ours.bytes / 2 ** 20).toFixed(0)} MiB in ${ours.seconds.toFixed(1)} s (${ours.workerCpuSeconds.toFixed(1)} s CPU); ` +
        `export worker RSS ${ours.rssStartMiB.toFixed(0)} MiB at start, peak ${ours.rssPeakMiB.toFixed(0)} MiB; scan ${scan.seconds.toFixed(1)} s; ` +
        `seeded through PostgresEventStore.append, chain on, in ${seeded.seconds.toFixed(1)} s; ` +
        `the first checkpoint (the whole log recomputed before it is signed, untimed above) took ${ours.firstCheckpointSeconds.toFixed(1)} s (${ours.firstCheckpointEventsPerSecond.toFixed(0)} events/s)`,
      details: { seed: seeded, scan, export: ours },
    });
  } finally {
    await scratch.drop();
  }
}

export const audit: Scenario = {
  name: 'audit',
  needsService: true,
  async run(ctx) {
    return [await writeRatio(ctx)];
  },
};

/** Its own scenario (`npm run bench -- audit-export`): it needs no service, and seeding its log takes minutes. */
export const auditExport: Scenario = {
  name: 'audit-export',
  aliases: ['export'],
  needsService: false,
  async run(ctx) {
    return [await exportRate(ctx)];
  },
};
