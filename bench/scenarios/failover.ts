// failover (for information): on the Patroni cluster of `npm run failover`
// (etcd, two Postgres nodes in synchronous mode, HAProxy; deploy/'s files),
// the write throughput through HAProxy against the same writes straight to
// the primary, and the write outage when the primary's postmaster and Patroni
// are SIGKILLed: from the kill to the first commit acknowledged after it.
// Not in quick mode (starting the cluster takes half a minute) and not where
// its Debian packages are missing.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ETCD, HAPROXY, PATRONI, PatroniCluster, PG_BIN } from '../../scripts/failover/cluster.js';
import { runTask, startDaemon } from '../lib/child.js';
import { row, unavailable } from '../lib/report.js';
import { sleep } from '../lib/stats.js';
import type { FailoverWriterInput, FailoverWriterResult } from '../workers/failover-writer.js';
import type { PgInsertInput, PgInsertResult } from '../workers/pg-insert.js';
import type { Scenario } from './shared.js';

const FIGURE = 'write outage when the primary is SIGKILLed (ttl 10 s); single-row INSERT transactions/s through HAProxy ÷ straight to the primary';

export const failover: Scenario = {
  name: 'failover',
  needsService: false,
  async run(ctx) {
    if (ctx.sizes.loadS < 5) return [unavailable('failover', FIGURE, 'not run in quick mode: it starts a Patroni cluster (npm run bench -- failover)')];
    const missing = [ETCD, PATRONI, HAPROXY, `${PG_BIN}/pg_rewind`].filter((f) => !existsSync(f));
    if (missing.length > 0) return [unavailable('failover', FIGURE, `missing ${missing.join(', ')} (Debian: patroni etcd-server haproxy postgresql-15)`)];
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cs-bench-failover-'));
    await chmod(dir, 0o711); // the postgres user runs the nodes
    const cluster = new PatroniCluster({ dir, log: (m) => ctx.log(`failover: ${m}`) });
    try {
      await cluster.start();
      const leader = await cluster.leader();
      if (!leader) throw new Error('no leader');
      const standby = cluster.nodes.find((n) => n !== leader)!;
      const insert = (url: string) =>
        runTask<PgInsertResult>(
          'pg-insert.ts',
          { url, concurrency: ctx.sizes.connections, durationS: ctx.sizes.loadS, warmupS: ctx.sizes.warmupS } satisfies PgInsertInput,
          { timeoutMs: (ctx.sizes.loadS + ctx.sizes.warmupS) * 1000 + 120_000 },
        );
      // The same synchronous commits one way and the other, twice, in turn (neither always gets the warmer database).
      const viaRuns = [await insert(cluster.superuserUrl())];
      const directRuns = [await insert(cluster.directUrl(leader))];
      directRuns.push(await insert(cluster.directUrl(leader)));
      viaRuns.push(await insert(cluster.superuserUrl()));
      const mean = (rs: PgInsertResult[]) => rs.reduce((a, r) => a + r.tps, 0) / rs.length;

      const writers = await startDaemon<Record<string, never>>('failover-writer.ts', { url: cluster.superuserUrl(), clients: 4 } satisfies FailoverWriterInput);
      await sleep(3_000);
      const { killedAt } = await leader.kill();
      const promoted = await cluster.waitPrimary(standby, 60_000);
      const promotedAt = Date.now();
      // writes flowing again for a few seconds, so the first acknowledgement after the kill is in
      await sleep(4_000);
      const written = await writers.stop<FailoverWriterResult>();
      // The killed primary's backends outlive its postmaster for a moment and may still acknowledge a commit
      // or two (replicated: they count): the outage ends with the first acknowledgement after the longest
      // silence that follows the kill.
      let prev = killedAt;
      let back: number | null = null;
      let longest = 0;
      for (const a of written.acks) {
        if (a.acked < killedAt) continue;
        if (a.acked - prev > longest) {
          longest = a.acked - prev;
          back = a.acked;
        }
        prev = a.acked;
      }
      const lateAcks = back === null ? 0 : written.acks.filter((a) => a.acked >= killedAt && a.acked < back! - longest).length;
      const outage = promoted && back !== null ? (back - killedAt) / 1000 : null;
      return [
        row({
          scenario: 'failover',
          figure: FIGURE,
          unit: 'tx/s',
          ours: mean(viaRuns),
          baselineLabel: 'straight to the primary',
          baseline: mean(directRuns),
          target: { kind: 'none' },
          note: `write outage ${outage === null ? 'not measured (no write after the kill)' : `${outage.toFixed(2)} s`} from the kill to the first commit acknowledged after the silence that followed it (${lateAcks} acknowledged by the dying primary first; promotion ${((promotedAt - killedAt) / 1000).toFixed(2)} s); ${ctx.sizes.connections} connections, synchronous commits to the standby both ways, mean of 2 runs each`,
          details: {
            outage_s: outage,
            acknowledged_by_the_dying_primary: lateAcks,
            promoted_after_s: (promotedAt - killedAt) / 1000,
            via_haproxy: viaRuns,
            direct: directRuns,
            writer_errors: written.errors,
          },
        }),
      ];
    } finally {
      await cluster.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
