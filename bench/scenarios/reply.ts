// reply: POST /api/conversations/{id}/reply spread over a pool of
// conversations, against the peer: the same command in the shape of emmett's
// Express + PostgreSQL web API sample (bench/workers/emmett-peer.ts), in its own
// process, driven by the very same requests over the very same conversation ids.
// With an EventStoreDB server, also against a service keeping its log there
// (`reply (eventstoredb)`), against the same peer run.
import type { Bootstrapper, Tenant } from '../lib/bootstrap.js';
import { startDaemon } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import type { Generator } from '../workers/load.js';
import type { PeerInput } from '../workers/emmett-peer.js';
import { auth, inParallel, load, loadDetails, loadNote, onEachSide, type Scenario } from './shared.js';

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
  onEachStore: true,
  async run(ctx) {
    const figure = `POST /api/conversations/{id}/reply over ${ctx.sizes.replyPool.toLocaleString('en-US')} conversations, ${ctx.sizes.connections} conns`;
    const scratch = await ctx.dbs.scratch('emmett');
    if (scratch.url === null) return [unavailable('reply', figure, scratch.reason)];
    try {
      // Each side's pool is seeded through its own service (its own workspace); the peer starts the Postgres side's
      // ids. A side on EventStoreDB is driven over ids of its own, with the same requests, against the same peer run.
      const seeded = await onEachSide(ctx, 'reply', async (side) => {
        const svc = await side.service();
        const boot = await side.boot();
        const t = await side.tenant('reply');
        const seedStarted = performance.now();
        const pool = await seedPool(boot, t, ctx.sizes.replyPool);
        const seconds = (performance.now() - seedStarted) / 1000;
        ctx.log(`${side.row('reply')}: ${pool.length} conversations seeded through the API in ${seconds.toFixed(1)} s`);
        return { svc, t, pool, seconds };
      });
      const first = seeded[0]!.out;
      const peerStarted = performance.now();
      const peer = await startDaemon<{ url: string }>('emmett-peer.ts', { url: scratch.url, conversations: first.pool, pool: 20 } satisfies PeerInput, {
        timeoutMs: 300_000,
        env: { ...process.env, NODE_ENV: 'production' },
      });
      const seedPeer = (performance.now() - peerStarted) / 1000;
      ctx.log(`reply: ${first.pool.length} conversations started in the peer in ${seedPeer.toFixed(1)} s`);
      try {
        // The same generator for both: the same paths, bodies and headers (the peer ignores the key and Idempotency-Key).
        const gen = (s: { pool: string[]; t: Tenant }): Generator => ({
          kind: 'reply',
          prefix: '/api/conversations/',
          conversations: s.pool,
          headers: auth(s.t),
        });
        const [pg, ...others] = seeded;
        const ours = await load(ctx, pg!.out.svc.url, gen(first), {}, pg!.out.svc.pid);
        const base = await load(ctx, peer.ready.url, gen(first), {}, peer.pid);
        const measured = [{ ...pg!, ours }];
        for (const o of others) {
          try {
            measured.push({ ...o, ours: await load(ctx, o.out.svc.url, gen(o.out), {}, o.out.svc.pid, o.side.storePid) });
          } catch (e) {
            seeded.failed.push(unavailable(o.side.row('reply'), figure, (e as Error).message.slice(0, 500), 'error'));
          }
        }
        return [
          ...measured.map(({ side, out, ours }) =>
            row({
              scenario: side.row('reply'),
              figure: side.store === 'postgres' ? figure : `${figure}, log on EventStoreDB`,
              unit: 'req/s',
              ours: ours.rps,
              baselineLabel: 'emmett CommandHandler + inline pongo projection, Express',
              baseline: base.rps,
              // On EventStoreDB: informational, beside the Postgres row (the same peer run).
              target: side.store === 'postgres' ? { kind: 'ratio>=', value: 1.5 } : { kind: 'none' },
              note: [
                side.store === 'postgres'
                  ? 'ours does more per reply than the peer: API-key authentication and scopes, the Idempotency-Key reserved and its answer stored, ' +
                    'the per-workspace gapless seq that feeds the change feed and webhooks (NOTIFY after commit), the conversation and part read models ' +
                    'projected in the same transaction, and the answer (the part with its conversation) read back from them (read-your-writes); ' +
                    'the peer reads the stream, decides, appends with the expected version and updates one pongo document inline, and answers with the part id; ' +
                    "the conversations are all in one workspace, whose writes ours serialises (its gapless seq), while the peer's streams are independent"
                  : "the same requests against a service whose log is one EventStoreDB stream per workspace (the append at an expected revision after the id index lookup, the read models projected after it); the workspace's writes queue in the process; the peer is the Postgres row's run",
                loadNote(ours, base, 'peer'),
              ]
                .filter(Boolean)
                .join('; '),
              details: {
                ours: loadDetails(ours),
                peer: loadDetails(base),
                pool: out.pool.length,
                seed_seconds: { ours: out.seconds, peer: seedPeer },
              },
            }),
          ),
          ...seeded.failed,
        ];
      } finally {
        await peer.stop();
      }
    } finally {
      await scratch.drop();
    }
  },
};
