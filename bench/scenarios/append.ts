// append: events/s through our event store against emmett-postgresql's
// appendToStream, on the same scratch database, same pool size, same events.
// With an EventStoreDB server, our store's adapter for it too (`append
// (eventstoredb)`), in the same rounds, against the same emmett runs.
import { runTask } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import { median } from '../lib/stats.js';
import type { AppendInput, AppendResult } from '../workers/append.js';
import { onEventStoreDb, type Scenario } from './shared.js';

export const append: Scenario = {
  name: 'append',
  needsService: false,
  onEachStore: true,
  async run(ctx) {
    const scratch = await ctx.dbs.scratch('append');
    if (scratch.url === null) return [unavailable('append', 'events/s appended, 16 writers over 16 tenants', scratch.reason)];
    const url = scratch.url;
    try {
      const es = ctx.eventstore ? { url: ctx.eventstore.url, streamPrefix: ctx.eventstore.streamPrefix } : undefined;
      const one = (store: AppendInput['store']) =>
        runTask<AppendResult>(
          'append.ts',
          { url, store, eventstore: es, writers: ctx.sizes.appendWriters, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS } satisfies AppendInput,
          { timeoutMs: (ctx.sizes.loadS + ctx.sizes.warmupS) * 1000 + 120_000 },
        );
      const stores: AppendInput['store'][] = ['ours', 'emmett', ...(es ? (['eventstoredb'] as const) : [])];
      const runs = new Map<AppendInput['store'], AppendResult[]>(stores.map((s) => [s, []]));
      const failures: string[] = [];
      for (let round = 0; round < ctx.sizes.appendRounds; round++) {
        // Alternate who goes first, so neither always gets the warmer (or more bloated) database.
        for (const store of round % 2 === 0 ? stores : [...stores].reverse()) {
          try {
            runs.get(store)!.push(await one(store));
          } catch (e) {
            // Only the server's side may fail alone (its row says why); the Postgres rows fail the scenario as before.
            if (store !== 'eventstoredb') throw e;
            failures.push((e as Error).message);
          }
        }
      }
      const ours = runs.get('ours')!;
      const peer = runs.get('emmett')!;
      const esdb = runs.get('eventstoredb') ?? [];
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
        ...(!es
          ? []
          : esdb.length
            ? [
                row({
                  scenario: onEventStoreDb('append'),
                  figure: `the same appends through our EventStoreDB adapter (id index lookup, append at the head, index rows, read-back), median of ${esdb.length}`,
                  unit: 'events/s',
                  ours: median(esdb.map((r) => r.eventsPerSecond)),
                  baselineLabel: 'emmett-postgresql',
                  baseline: median(peer.map((r) => r.eventsPerSecond)),
                  // Informational: beside the Postgres row, against the same emmett runs.
                  target: { kind: 'none' },
                  ...(failures.length ? { note: `${failures.length} of its runs failed: ${failures[0]!.slice(0, 300)}` } : {}),
                  details: { eventstoredb: esdb, server: ctx.eventstore?.shown },
                }),
              ]
            : [unavailable(onEventStoreDb('append'), 'could not be measured', (failures[0] ?? 'no run').slice(0, 500), 'error')]),
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
