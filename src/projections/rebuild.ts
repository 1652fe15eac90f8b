// Drops every read model and replays the whole log into it.
//
// It runs as one transaction. TRUNCATE takes ACCESS EXCLUSIVE locks, so reads
// of the read models and every command (which reads its tenant's projection
// checkpoint) wait until the rebuild commits: nobody sees half-built tables and
// no command races the replay. It is safe to run while the service is up, but
// the API stalls for its duration (about 10 s per 200,000 events here), so run
// it in a quiet moment.
import type { Knex } from 'knex';
import type { EventStore } from '../eventstore/store.port.js';
import type { ProjectionEngine } from './engine.js';

export interface RebuildProgress {
  events: number;
  elapsedMs: number;
}

export async function rebuildReadModels(
  db: Knex,
  store: EventStore,
  engine: ProjectionEngine,
  onProgress: (p: RebuildProgress) => void = () => undefined,
  batchSize = 5000,
): Promise<RebuildProgress> {
  const started = Date.now();
  let count = 0;
  await db.transaction(async (trx) => {
    await trx.raw(`TRUNCATE ${engine.tables().map((t) => `"${t}"`).join(', ')}`);
    // Read models that are a plain copy of the log rebuild server-side when the log is in this database.
    const native = store.kind === 'postgres' ? engine.projectors.filter((p) => p.rebuildFromEventsTable) : [];
    for (const p of native) await p.rebuildFromEventsTable!(trx);
    const skip = new Set(native);
    let after: string | null = null;
    // Read ahead one batch while the previous one is applied.
    let next = store.readAll(after, batchSize);
    for (;;) {
      const page = await next;
      if (page.events.length === 0) break;
      after = page.checkpoint;
      next = store.readAll(after, batchSize);
      await engine.apply(trx, page.events, undefined, skip);
      count += page.events.length;
      onProgress({ events: count, elapsedMs: Date.now() - started });
    }
  });
  return { events: count, elapsedMs: Date.now() - started };
}
