// Closing a knex pool without aborting work still queued on it. The event
// store sends its NOTIFY after an append's commit without awaiting it (at most
// one in flight, one queued behind); destroying the pool while that query
// still waits for a connection aborts the wait, and knex logs the aborted
// acquire with a stack trace. So: wait until the pool is idle, then destroy.
import type { Knex } from 'knex';
import { sleep } from './stats.js';

interface TarnPool {
  numUsed(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

export async function closeKnex(db: Knex, timeoutMs = 10_000): Promise<void> {
  const pool = (db.client as { pool?: TarnPool }).pool;
  const until = Date.now() + timeoutMs;
  while (pool && pool.numUsed() + pool.numPendingAcquires() + pool.numPendingCreates() > 0 && Date.now() < until) await sleep(5);
  await db.destroy();
}
