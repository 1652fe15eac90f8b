// read: authenticated GETs of conversations with their parts, each request for
// one of `readPool` conversations picked at random (so concurrent requests
// read different rows, as real traffic does), against a bare Express handler
// in its own process answering the same JSON document to the same requests.
import { row } from '../lib/report.js';
import { auth, load, loadDetails, loadNote, sampleConversation, type Scenario } from './shared.js';

export const read: Scenario = {
  name: 'read',
  needsService: true,
  async run(ctx) {
    const svc = await ctx.service();
    const main = await ctx.tenant('main');
    const conv = await ctx.sampleConversation();
    const ids = [conv.id];
    // the others like the sample: 4 parts each, made through the API
    const boot = await ctx.boot();
    while (ids.length < ctx.sizes.readPool) ids.push((await sampleConversation(boot, main)).id);
    const bare = await ctx.bare();
    const prefix = '/api/conversations/';
    const ours = await load(ctx, svc.url, { kind: 'get-random', prefix, ids, headers: auth(main) }, {}, svc.pid);
    const base = await load(ctx, bare.url, { kind: 'get-random', prefix, ids }, {}, bare.pid);
    return [
      row({
        scenario: 'read',
        figure: `GET /api/conversations/{id} of ${ids.length} conversations at random (API key, ${(conv.json as { parts: unknown[] }).parts.length} parts), ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: ours.rps,
        baselineLabel: 'bare Express, same JSON',
        baseline: base.rps,
        target: { kind: 'ratio>=', value: 0.4 },
        note: loadNote(ours, base, 'bare Express'),
        details: { ours: loadDetails(ours), baseline: loadDetails(base), response_bytes: JSON.stringify(conv.json).length },
      }),
    ];
  },
};
