// append: events/s through our event store against emmett-postgresql's
// appendToStream, on the same scratch database, same pool size, same events.
import { runTask } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import { median } from '../lib/stats.js';
import type { AppendInput, AppendResult } from '../workers/append.js';
import type { Scenario } from './shared.js';

export const append: Scenario = {
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
