// rebuild: events/s of rebuildReadModels over a seeded log, against a plain
// keyset SELECT scan of the same events, in a scratch database.
import { runTask } from '../lib/child.js';
import { cpuMeter } from '../lib/cpu.js';
import { row, unavailable } from '../lib/report.js';
import type { RebuildInput, RebuildStepResult } from '../workers/rebuild.js';
import type { Scenario } from './shared.js';

export const rebuild: Scenario = {
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
          target: { kind: 'ratio>=', value: 0.35 },
          note: `rebuild ${cpu(ours)}; scan ${cpu(scan)}; events seeded through PostgresEventStore.append (${seeded.seconds.toFixed(1)} s): ${Object.entries(
            seeded.byType ?? {},
          )
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
