// Drops every read model and replays the whole log into it.
//
// It runs as one transaction: readers keep seeing the old rows until the new
// ones commit, and commands (which read the projection checkpoint under their
// tenant lock) wait behind the TRUNCATE instead of racing the replay. So it is
// safe, if blocking, to run while the service is up.
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
    let after: string | null = null;
    // Read ahead one batch while the previous one is applied.
    let next = store.readAll(after, batchSize);
    for (;;) {
      const page = await next;
      if (page.events.length === 0) break;
      after = page.checkpoint;
      next = store.readAll(after, batchSize);
      await engine.apply(trx, page.events);
      count += page.events.length;
      onProgress({ events: count, elapsedMs: Date.now() - started });
    }
  });
  return { events: count, elapsedMs: Date.now() - started };
}
