// What row-level security costs: the same read and write loads against two
// service processes on one database, one with ROW_LEVEL_SECURITY on (the
// default: each request runs in a transaction that takes the tenant role and
// setting) and one with it off. The ratio is on ÷ off.
import { row, type Row } from '../lib/report.js';
import { auth, load, loadDetails, loadNote, type Ctx, type Scenario } from './shared.js';

export const rls: Scenario = {
  name: 'rls',
  needsService: true,
  async run(ctx: Ctx): Promise<Row[]> {
    const on = await ctx.service();
    const off = await ctx.serviceWith('rls-off', { ROW_LEVEL_SECURITY: 'off' });
    const main = await ctx.tenant('main');
    const conv = await ctx.sampleConversation();
    const readPath = `/api/conversations/${conv.id}`;
    const readGen = { kind: 'static' as const, method: 'GET' as const, path: readPath, headers: auth(main) };
    const writeGen = {
      kind: 'create-conversation' as const,
      path: '/api/conversations',
      tenants: [{ headers: auth(main), channelId: main.channelId }],
      contacts: 1000,
    };
    // Alternate which goes first, so neither always meets a warmer Postgres.
    let readOff, readOn, writeOn, writeOff;
    try {
      readOff = await load(ctx, off.url, readGen, {}, off.pid);
      readOn = await load(ctx, on.url, readGen, {}, on.pid);
      writeOn = await load(ctx, on.url, writeGen, {}, on.pid);
      writeOff = await load(ctx, off.url, writeGen, {}, off.pid);
    } finally {
      await ctx.stopServiceWith('rls-off');
    }
    return [
      row({
        scenario: 'rls read',
        figure: `GET /api/conversations/{id}, row-level security on vs off, ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: readOn.rps,
        baselineLabel: 'same, ROW_LEVEL_SECURITY=off',
        baseline: readOff.rps,
        target: { kind: 'none' },
        note: loadNote(readOn, readOff, 'off'),
        details: { on: loadDetails(readOn), off: loadDetails(readOff) },
      }),
      row({
        scenario: 'rls write',
        figure: `POST /api/conversations, row-level security on vs off, ${ctx.sizes.connections} conns`,
        unit: 'req/s',
        ours: writeOn.rps,
        baselineLabel: 'same, ROW_LEVEL_SECURITY=off',
        baseline: writeOff.rps,
        target: { kind: 'none' },
        note: loadNote(writeOn, writeOff, 'off'),
        details: { on: loadDetails(writeOn), off: loadDetails(writeOff) },
      }),
    ];
  },
};
