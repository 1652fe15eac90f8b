// bulk: conversations closed by one bulk job (POST /api/conversations/bulk,
// then GET /api/jobs/{id} until it completes), against the same action sent
// one by one over the API (POST /api/conversations/{id}/parts close, one
// request after another, as an integration's loop would): items per second.
// Both close as many conversations of the same workspace, made through the API
// beforehand; bounded in count, and each side in time.
import { row } from '../lib/report.js';
import { auth, inParallel, type Scenario } from './shared.js';

const FULL_ITEMS = 1000;
const QUICK_ITEMS = 100;
const DEADLINE_MS = 300_000;

export const bulk: Scenario = {
  name: 'bulk',
  aliases: ['jobs'],
  needsService: true,
  async run(ctx) {
    await ctx.service();
    const main = await ctx.tenant('main');
    const boot = await ctx.boot();
    const n = ctx.sizes.loadS >= 10 ? FULL_ITEMS : QUICK_ITEMS;
    const make = () =>
      inParallel(
        Array.from({ length: n }, (_, i) => i),
        8,
        async (i) =>
          (
            await boot.expect(
              201,
              'POST',
              '/api/conversations',
              { channel_id: main.channelId, body: `Bulk ${i}`, contact: { external_id: `bulk-${i % 50}` } },
              auth(main),
            )
          ).body.id as string,
      );
    const forJob = await make();
    const oneByOne = await make();

    const started = performance.now();
    const job = await boot.expect(202, 'POST', '/api/conversations/bulk', { ids: forJob, action: { close: true } }, auth(main));
    let state = job.body as { status: string; succeeded: number; failed: number; skipped: number };
    while (state.status !== 'completed') {
      if (performance.now() - started > DEADLINE_MS) throw new Error(`the bulk job did not complete within ${DEADLINE_MS} ms: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 20));
      state = (await boot.expect(200, 'GET', `/api/jobs/${job.body.id}`, undefined, auth(main))).body;
    }
    const jobS = (performance.now() - started) / 1000;

    const t0 = performance.now();
    for (const id of oneByOne) {
      if (performance.now() - t0 > DEADLINE_MS) throw new Error(`closing one by one took over ${DEADLINE_MS} ms`);
      await boot.expect(201, 'POST', `/api/conversations/${id}/parts`, { message_type: 'close' }, auth(main));
    }
    const loopS = (performance.now() - t0) / 1000;
    return [
      row({
        scenario: 'bulk',
        figure: `${n} conversations closed by one bulk job (POST, then GET /api/jobs/{id} every 20 ms until completed)`,
        unit: 'items/s',
        ours: state.succeeded / jobS,
        baselineLabel: 'the same close sent one by one over the API',
        baseline: n / loopS,
        target: { kind: 'ratio>=', value: 1 },
        note: state.failed || state.skipped ? `${state.failed} failed and ${state.skipped} skipped of ${n}` : undefined,
        details: { items: n, job_seconds: jobS, one_by_one_seconds: loopS, job: state },
      }),
    ];
  },
};
