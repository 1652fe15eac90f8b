// read: an authenticated GET of one conversation with its parts, against a bare
// Express handler in its own process answering the same JSON document.
import { row } from '../lib/report.js';
import { auth, load, loadDetails, loadNote, type Scenario } from './shared.js';

export const read: Scenario = {
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
        target: { kind: 'ratio>=', value: 0.4 },
        note: loadNote(ours, base, 'bare Express'),
        details: { ours: loadDetails(ours), baseline: loadDetails(base), response_bytes: JSON.stringify(conv.json).length },
      }),
    ];
  },
};
