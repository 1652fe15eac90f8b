// The audit scenario's export step, in a scratch database the rebuild worker
// seeded: every workspace's log through the export's own stream (exportLines:
// paged reads by seq, one NDJSON line per event as stored, the signed
// checkpoint at the end) into a sink that takes a chunk at a time and waits for
// 'drain' as the HTTP response does, so the pace and the memory are the
// export's, HTTP aside. Peak RSS growth over the run says whether it holds a
// page or the whole log. The export signs its checkpoint only over a chain it
// recomputed from the last checkpoint (audit-chain.issue.ts): a first
// checkpoint of the seeded log (what the scheduled worker would have issued
// long before anyone exports) is signed first, timed apart (`firstCheckpoint`:
// the whole log recomputed from the genesis value), and the export then pays
// what it pays in service, the walk from that checkpoint to its head.
import { generateKeyPairSync } from 'node:crypto';
import { Writable } from 'node:stream';
import { createDb } from '../../src/platform/db/database.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { signerOf } from '../../src/platform/crypto/signing.js';
import { issueCheckpoint } from '../../src/capabilities/audit-chain/audit-chain.issue.js';
import { exportLines } from '../../src/capabilities/audit-chain/audit-chain.export.js';
import { task } from '../lib/child.js';
import { closeKnex } from '../lib/knex-close.js';

export interface AuditExportInput {
  url: string;
}

export interface AuditExportResult {
  events: number;
  workspaces: number;
  bytes: number;
  seconds: number;
  eventsPerSecond: number;
  rssStartMiB: number;
  rssPeakMiB: number;
  workerCpuSeconds: number;
  /** the first checkpoint of each workspace, the whole log recomputed: seconds, and events/s over all */
  firstCheckpointSeconds: number;
  firstCheckpointEventsPerSecond: number;
}

/** A sink that drains slowly enough to push back (a 64 KiB buffer, a macrotask per chunk), like a socket. */
function sink(): Writable & { bytes: number } {
  const w = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _enc, cb) {
      w.bytes += chunk.length;
      setImmediate(cb);
    },
  }) as Writable & { bytes: number };
  w.bytes = 0;
  return w;
}

task<AuditExportInput, AuditExportResult>(async ({ url }) => {
  const db = createDb(url, { max: 4 });
  const store = new PostgresEventStore(db, null);
  const signer = signerOf(generateKeyPairSync('ed25519').privateKey);
  const mib = () => process.memoryUsage().rss / 2 ** 20;
  const cpu = process.cpuUsage();
  const rssStartMiB = mib();
  let rssPeakMiB = rssStartMiB;
  const sampler = setInterval(() => (rssPeakMiB = Math.max(rssPeakMiB, mib())), 20);
  try {
    const tenants = ((await db.raw('SELECT tenant_id, last_seq FROM event_heads ORDER BY tenant_id')).rows as { tenant_id: string; last_seq: string }[]).map(
      (r) => ({ id: r.tenant_id, head: Number(r.last_seq) }),
    );
    const issue = (tenantId: string, seq: number) =>
      issueCheckpoint(
        { db, store, signer, trustedKeys: new Map(), witness: null, alarm: { broken: () => undefined, held: () => undefined } },
        { tenantId, id: crypto.randomUUID(), seq, now: new Date() },
      );
    const first = performance.now();
    for (const t of tenants) await issue(t.id, t.head);
    const firstCheckpointSeconds = (performance.now() - first) / 1000;
    const out = sink();
    const started = performance.now();
    let events = 0;
    for (const t of tenants) {
      const lines = exportLines(store, { tenantId: t.id, afterSeq: 0, toSeq: t.head }, async (seq, hash) => {
        const signed = await issue(t.id, seq);
        if (signed.hash !== hash) throw new Error(`tenant ${t.id}: the export's last hash is not the one signed`);
        return signed;
      });
      for await (const chunk of lines) {
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
      }
      events += t.head;
    }
    await new Promise<void>((resolve) => out.end(resolve));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return {
      events,
      workspaces: tenants.length,
      bytes: out.bytes,
      seconds,
      eventsPerSecond: events / seconds,
      rssStartMiB,
      rssPeakMiB: Math.max(rssPeakMiB, mib()),
      workerCpuSeconds: (used.user + used.system) / 1e6,
      firstCheckpointSeconds,
      firstCheckpointEventsPerSecond: events / firstCheckpointSeconds,
    };
  } finally {
    clearInterval(sampler);
    await closeKnex(db);
  }
});
