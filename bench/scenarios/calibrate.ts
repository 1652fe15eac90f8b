// calibration: not a figure of ours; what this machine allows a bare handler
// that makes 1, 3 or 15 Postgres round trips per request.
import { startDaemon } from '../lib/child.js';
import { row, type Row } from '../lib/report.js';
import type { BareInput } from '../workers/bare-server.js';
import { load, loadDetails, type Scenario } from './shared.js';

/**
 * Not a figure of ours: what this machine allows any HTTP handler that makes N
 * sequential Postgres round trips (raw pg, SELECT $1, nothing else), against the
 * same bare handler with none. It bounds what the read and write ratios can be
 * here, whatever the service does: a round trip costs both the handler and
 * Postgres CPU, and two cores are shared by the load generator, the handler and Postgres.
 */
export const calibrate: Scenario = {
  name: 'calibrate',
  // only for the sample JSON (the same document the read baseline answers with)
  needsService: true,
  async run(ctx) {
    const json = (await ctx.sampleConversation()).json;
    const rows: Row[] = [];
    const bare = await ctx.bare();
    const base = await load(ctx, bare.url, { kind: 'static', method: 'GET', path: '/calibrate' }, {}, bare.pid);
    // One more bare server, with a pg pool: ?round_trips=N makes N sequential queries before answering.
    const d = await startDaemon<{ url: string }>('bare-server.ts', { json, databaseUrl: ctx.dbs.mainUrl } satisfies BareInput);
    try {
      for (const roundTrips of [1, 3, 15]) {
        const r = await load(ctx, d.ready.url, { kind: 'static', method: 'GET', path: `/calibrate?round_trips=${roundTrips}` }, {}, d.pid);
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
      }
    } finally {
      await d.stop();
    }
    return rows;
  },
};
