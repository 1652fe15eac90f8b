// Drops every read model and replays the whole log into it.
//
// It runs as one transaction. TRUNCATE takes ACCESS EXCLUSIVE locks, so reads
// of the read models and every command (which reads its tenant's projection
// checkpoint) wait until the rebuild commits: nobody sees half-built tables and
// no command races the replay. It is safe to run while the service is up, but
// the API stalls for its duration (7 to 10 s per 200,000 events here), so run
// it in a quiet moment.
//
// The read models' secondary indexes are dropped after the TRUNCATE and built
// again, from their own definitions, once the log is replayed: one sorted
// build per index instead of an insertion per row (the GIN indexes of tags
// and full-text search cost the most). Primary keys and unique indexes stay,
// because the projections' upserts need them. All of it is in the one
// transaction, so a failure leaves every index as it was.
//
// An empty page of the global order means "nothing readable yet", not "the
// end": the Postgres store shows a commit only once no older transaction of
// the cluster is still open (store.port.ts, readAll), so a long transaction
// elsewhere, even in another database, hides the newest events a while. The
// rebuild counts the log before it starts and reads until it has replayed that
// many, instead of taking a short read for the end.
import { setTimeout as sleep } from 'node:timers/promises';
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
  /** how long the log may stay unreadable short of its counted end before the rebuild gives up (and rolls back) */
  readableWithinMs = 120_000,
): Promise<RebuildProgress> {
  const started = Date.now();
  let count = 0;
  // Counted before the transaction: every event it counts was committed by a transaction older than ours, so it
  // becomes readable once the transactions older than it end (ours, still open, would hold back any later one).
  const total = await store.countAll();
  await db.transaction(async (trx) => {
    await trx.raw(
      `TRUNCATE ${engine
        .tables()
        .map((t) => `"${t}"`)
        .join(', ')}`,
    );
    const indexes = await dropSecondaryIndexes(trx, engine.tables());
    let after: string | null = null;
    // Checkpoints are known as we go (the tables start empty), so apply never reads them.
    const known = new Map<string, number>();
    // Read one page ahead, and let batch N's statements run in Postgres while batch N+1 is folded here.
    let next = store.readAll(after, batchSize);
    let applying: Promise<void> | null = null;
    let waitingSince: number | null = null;
    for (;;) {
      const page = await next;
      if (page.events.length === 0) {
        if (total === null || count >= total) break;
        waitingSince ??= Date.now();
        if (Date.now() - waitingSince > readableWithinMs) {
          throw new Error(
            `the log was counted at ${total} events but only ${count} became readable within ${readableWithinMs / 1000} s: a transaction of this Postgres cluster has stayed open`,
          );
        }
        await sleep(20);
        next = store.readAll(after, batchSize);
        continue;
      }
      waitingSince = null;
      after = page.checkpoint;
      next = store.readAll(after, batchSize);
      for (const e of page.events) if (!known.has(e.tenant_id)) known.set(e.tenant_id, 0);
      const batch = engine.apply(trx, page.events, known);
      batch.catch(() => undefined); // awaited below; this only keeps a failure from counting as unhandled meanwhile
      for (const e of page.events) known.set(e.tenant_id, e.seq);
      await applying;
      applying = batch;
      count += page.events.length;
      onProgress({ events: count, elapsedMs: Date.now() - started });
    }
    await applying;
    // Deferred constraint checks are run now rather than at commit: Postgres builds no index on a table with
    // such checks pending.
    await trx.raw('SET CONSTRAINTS ALL IMMEDIATE');
    // Sorting for an index build uses maintenance_work_mem; this transaction's own setting, not the server's.
    await trx.raw("SELECT set_config('maintenance_work_mem', '256MB', true)");
    for (const sql of indexes) await trx.raw(sql);
  });
  return { events: count, elapsedMs: Date.now() - started };
}

/**
 * Drops the tables' indexes that neither back a constraint nor are unique,
 * and returns the statements that create them again, exactly as they were.
 */
async function dropSecondaryIndexes(trx: Knex.Transaction, tables: string[]): Promise<string[]> {
  const { rows } = await trx.raw<{ rows: { name: string; def: string }[] }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE i.indrelid = ANY (SELECT to_regclass(quote_ident(t))::oid FROM unnest(?::text[]) t)
        AND NOT i.indisunique AND NOT i.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
      ORDER BY 1`,
    [tables],
  );
  for (const r of rows) await trx.raw(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.def);
}
