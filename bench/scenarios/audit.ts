// audit: what the hash chain costs the write path, and how fast the audit
// export streams.
//   audit:        the write scenario's load (POST /api/conversations, one workspace) against the service with
//                 the chain on (the default) and against a second process on the same database with
//                 AUDIT_CHAIN=off (a bench-only switch), two runs each, interleaved; the ratio is on ÷ off.
//   audit export: events/s of the export's stream (exportLines: paged reads, one NDJSON line per event as
//                 stored, the signed checkpoint) over one workspace of auditExportEvents events seeded in a
//                 scratch database, into a sink with back-pressure, against the rebuild scenario's plain
//                 keyset SELECT scan of the same events; the note gives the export worker's peak RSS growth.
import { runTask } from '../lib/child.js';
import { row, unavailable, type Row } from '../lib/report.js';
import type { AuditExportInput, AuditExportResult } from '../workers/audit-export.js';
import type { RebuildInput, RebuildStepResult } from '../workers/rebuild.js';
import { auth, load, loadDetails, loadNote, type Ctx, type Measured, type Scenario } from './shared.js';

async function writeRatio(ctx: Ctx): Promise<Row> {
  const on = await ctx.service();
  const off = await ctx.serviceWith('chain-off', { AUDIT_CHAIN: 'off' });
  // A workspace each: the chain-off one's log is not a chain, and the on one's must stay one.
  const [tOn, tOff] = [await ctx.tenant('audit-on'), await ctx.tenant('audit-off')];
  const gen = (t: typeof tOn) => ({
    kind: 'create-conversation' as const,
    path: '/api/conversations',
    tenants: [{ headers: auth(t), channelId: t.channelId }],
    contacts: 1000,
  });
  const runs: { on: Measured[]; off: Measured[] } = { on: [], off: [] };
  try {
    // Interleaved (off, on, on, off): neither always meets a warmer Postgres or a busier neighbour.
    runs.off.push(await load(ctx, off.url, gen(tOff), {}, off.pid));
    runs.on.push(await load(ctx, on.url, gen(tOn), {}, on.pid));
    runs.on.push(await load(ctx, on.url, gen(tOn), {}, on.pid));
    runs.off.push(await load(ctx, off.url, gen(tOff), {}, off.pid));
  } finally {
    await ctx.stopServiceWith('chain-off');
  }
  const mean = (ms: Measured[]) => ms.reduce((s, m) => s + m.rps, 0) / ms.length;
  return row({
    scenario: 'audit',
    figure: `POST /api/conversations with the hash chain on vs AUDIT_CHAIN=off, one workspace, ${ctx.sizes.connections} conns, 2 runs each`,
    unit: 'req/s',
    ours: mean(runs.on),
    baselineLabel: 'same, AUDIT_CHAIN=off',
    baseline: mean(runs.off),
    target: { kind: 'ratio>=', value: 0.9 },
    note: `${loadNote(runs.on[0]!, runs.off[0]!, 'off')}; runs: on ${runs.on.map((m) => m.rps.toFixed(0)).join(', ')}, off ${runs.off.map((m) => m.rps.toFixed(0)).join(', ')} req/s`,
    details: { on: runs.on.map(loadDetails), off: runs.off.map(loadDetails) },
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
      target: { kind: 'none' },
      note:
        `${ours.events.toLocaleString('en-US')} lines, ${(ours.bytes / 2 ** 20).toFixed(0)} MiB in ${ours.seconds.toFixed(1)} s (${ours.workerCpuSeconds.toFixed(1)} s CPU); ` +
        `export worker RSS ${ours.rssStartMiB.toFixed(0)} MiB at start, peak ${ours.rssPeakMiB.toFixed(0)} MiB; scan ${scan.seconds.toFixed(1)} s; ` +
        `seeded through PostgresEventStore.append, chain on, in ${seeded.seconds.toFixed(1)} s`,
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
    return [await writeRatio(ctx), await exportRate(ctx)];
  },
};
