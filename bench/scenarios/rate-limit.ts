// What the API rate limits cost a read: the read load against two service
// processes on one database, the main one with rate limits on (every request
// draws from its key's and its workspace's budgets; the bench's quotas sit far
// above its load, so nothing is refused and what is measured is the mechanism:
// the local spend, the RateLimit fields, and a block taken from Postgres now and
// then) and one with RATE_LIMITS=off. Runs alternate which process goes first,
// so neither always meets a warmer Postgres; the ratio is on ÷ off over all runs.
import { row, type Row } from '../lib/report.js';
import { auth, load, loadDetails, loadNote, type Ctx, type Measured, type Scenario } from './shared.js';

/** Pairs of runs (on and off), alternating which goes first; one in quick mode. */
const PAIRS = 3;

export const rateLimit: Scenario = {
  name: 'ratelimit',
  aliases: ['rate-limit'],
  needsService: true,
  async run(ctx: Ctx): Promise<Row[]> {
    const on = await ctx.service();
    const off = await ctx.serviceWith('ratelimit-off', { RATE_LIMITS: 'off' });
    const main = await ctx.tenant('main');
    const conv = await ctx.sampleConversation();
    const gen = { kind: 'static' as const, method: 'GET' as const, path: `/api/conversations/${conv.id}`, headers: auth(main) };
    // The fields are there with limits on and absent with them off: the two processes differ in that alone.
    const probe = async (url: string) => (await fetch(`${url}${gen.path}`, { headers: gen.headers })).headers.get('ratelimit');
    if ((await probe(on.url)) === null || (await probe(off.url)) !== null)
      throw new Error('ratelimit: the on/off processes do not differ in their RateLimit fields');
    const runsOn: Measured[] = [];
    const runsOff: Measured[] = [];
    try {
      const pairs = ctx.sizes.loadS < 5 ? 1 : PAIRS;
      for (let i = 0; i < pairs; i++) {
        const order = i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const which of order) {
          if (which === 'on') runsOn.push(await load(ctx, on.url, gen, {}, on.pid));
          else runsOff.push(await load(ctx, off.url, gen, {}, off.pid));
        }
      }
    } finally {
      await ctx.stopServiceWith('ratelimit-off');
    }
    const total = (runs: Measured[]) => runs.reduce((n, r) => n + r.ok, 0) / runs.reduce((s, r) => s + r.durationS, 0);
    const rpsOn = total(runsOn);
    const rpsOff = total(runsOff);
    return [
      row({
        scenario: 'rate limit read',
        figure: `GET /api/conversations/{id}, rate limits on vs off, ${ctx.sizes.connections} conns, ${runsOn.length} alternated runs each`,
        unit: 'req/s',
        ours: rpsOn,
        baselineLabel: 'same, RATE_LIMITS=off',
        baseline: rpsOff,
        target: { kind: 'ratio>=', value: 0.95 },
        note: [
          `per run on ${runsOn.map((r) => Math.round(r.rps)).join(', ')}; off ${runsOff.map((r) => Math.round(r.rps)).join(', ')} req/s`,
          loadNote(runsOn[runsOn.length - 1]!, runsOff[runsOff.length - 1]!, 'off'),
        ]
          .filter(Boolean)
          .join('; '),
        details: { on: runsOn.map(loadDetails), off: runsOff.map(loadDetails) },
      }),
    ];
  },
};
