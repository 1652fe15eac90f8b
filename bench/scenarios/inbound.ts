// inbound: signed channel posts, every one a new thread, against the bare
// Express handler sent the very same signed requests.
import { row } from '../lib/report.js';
import type { Generator } from '../workers/load.js';
import { load, loadDetails, loadNote, type Scenario } from './shared.js';

export const inbound: Scenario = {
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
        target: { kind: 'ratio>=', value: 0.1 },
        note: loadNote(ours, base, 'bare Express'),
        details: { ours: loadDetails(ours), baseline: loadDetails(base) },
      }),
    ];
  },
};
