// reply: POST /api/conversations/{id}/reply spread over a pool of
// conversations, against the peer: the same command in the shape of emmett's
// Express + PostgreSQL web API sample (bench/workers/emmett-peer.ts), in its own
// process, driven by the very same requests over the very same conversation ids.
import type { Bootstrapper, Tenant } from '../lib/bootstrap.js';
import { startDaemon } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import type { Generator } from '../workers/load.js';
import type { PeerInput } from '../workers/emmett-peer.js';
import { auth, inParallel, load, loadDetails, loadNote, type Scenario } from './shared.js';

/** `n` conversations of the tenant, created through the API (a handful of contacts), their ids. */
async function seedPool(boot: Bootstrapper, t: Tenant, n: number): Promise<string[]> {
  return inParallel(
    Array.from({ length: n }, (_, i) => i),
    8,
    async (i) => {
      const created = await boot.expect(
        201,
        'POST',
        '/api/conversations',
        {
          channel_id: t.channelId,
          body: 'Hello, my order has not arrived yet.',
          subject: `Order ${i}`,
          contact: { external_id: `bench-reply-contact-${i % 50}`, name: `Customer ${i % 50}` },
        },
        auth(t),
      );
      return created.body.id as string;
    },
  );
}

export const reply: Scenario = {
  name: 'reply',
  aliases: ['emmett', 'peer'],
  needsService: true,
  async run(ctx) {
    const figure = `POST /api/conversations/{id}/reply over ${ctx.sizes.replyPool.toLocaleString('en-US')} conversations, ${ctx.sizes.connections} conns`;
    const scratch = await ctx.dbs.scratch('emmett');
    if (scratch.url === null) return [unavailable('reply', figure, scratch.reason)];
    try {
      const svc = await ctx.service();
      const boot = await ctx.boot();
      const t = await ctx.tenant('reply');
      const seedStarted = performance.now();
      const pool = await seedPool(boot, t, ctx.sizes.replyPool);
      const seedOurs = (performance.now() - seedStarted) / 1000;
      const peerStarted = performance.now();
      const peer = await startDaemon<{ url: string }>('emmett-peer.ts', { url: scratch.url, conversations: pool, pool: 20 } satisfies PeerInput, {
        timeoutMs: 300_000,
        env: { ...process.env, NODE_ENV: 'production' },
      });
      const seedPeer = (performance.now() - peerStarted) / 1000;
      ctx.log(`reply: ${pool.length} conversations seeded through our API in ${seedOurs.toFixed(1)} s, started in the peer in ${seedPeer.toFixed(1)} s`);
      try {
        // The same generator for both: the same paths, bodies and headers (the peer ignores the key and Idempotency-Key).
        const gen: Generator = { kind: 'reply', prefix: '/api/conversations/', conversations: pool, headers: auth(t) };
        const ours = await load(ctx, svc.url, gen, {}, svc.pid);
        const base = await load(ctx, peer.ready.url, gen, {}, peer.pid);
        return [
          row({
            scenario: 'reply',
            figure,
            unit: 'req/s',
            ours: ours.rps,
            baselineLabel: 'emmett CommandHandler + inline pongo projection, Express',
            baseline: base.rps,
            target: { kind: 'ratio>=', value: 1.5 },
            note: [
              'ours does more per reply than the peer: API-key authentication and scopes, the Idempotency-Key reserved and its answer stored, ' +
                'the per-workspace gapless seq that feeds the change feed and webhooks (NOTIFY after commit), the conversation and part read models ' +
                'projected in the same transaction, and the answer (the part with its conversation) read back from them (read-your-writes); ' +
                'the peer reads the stream, decides, appends with the expected version and updates one pongo document inline, and answers with the part id; ' +
                "the conversations are all in one workspace, whose writes ours serialises (its gapless seq), while the peer's streams are independent",
              loadNote(ours, base, 'peer'),
            ]
              .filter(Boolean)
              .join('; '),
            details: { ours: loadDetails(ours), peer: loadDetails(base), pool: pool.length, seed_seconds: { ours: seedOurs, peer: seedPeer } },
          }),
        ];
      } finally {
        await peer.stop();
      }
    } finally {
      await scratch.drop();
    }
  },
};
