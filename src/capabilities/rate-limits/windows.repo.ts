// The rate-limit windows every process counts in (migration 031): the store behind
// src/api/rate-limit/limiter.ts. A take is one statement for all the budgets a
// request needs a block of; each row is locked only while that statement runs.
import type { Knex } from 'knex';
import type { TakeRequest, Taken, WindowStore } from '../../api/rate-limit/limiter.js';

// Grants min(block, quota − used) and never counts past the quota: `granted` carries the block asked for
// into the conflict arm. A used-up window is not written again (the WHERE), and is left out of the answer.
// Rows are taken in key order, so two takes naming the same rows cannot deadlock.
const TAKE = `
  INSERT INTO rate_limit_windows AS w (key, window_start, window_end, quota, used, granted)
  SELECT b.key, b.window_start, b.window_end, b.quota, least(b.block, b.quota), least(b.block, b.quota)
    FROM jsonb_to_recordset(?::jsonb) AS b(key text, window_start timestamptz, window_end timestamptz, quota int, block int)
   ORDER BY b.key
  ON CONFLICT (key, window_start) DO UPDATE SET
    used = w.used + least(EXCLUDED.granted, EXCLUDED.quota - w.used),
    granted = least(EXCLUDED.granted, EXCLUDED.quota - w.used),
    quota = EXCLUDED.quota
  WHERE w.used < EXCLUDED.quota
  RETURNING key, used, granted`;

export class PostgresWindowStore implements WindowStore {
  /** `db`: the owner pool. The windows are no tenant's rows (no row-level security), and takes run before a request enters its tenant's scope. */
  constructor(private readonly db: Knex) {}

  async take(requests: TakeRequest[]): Promise<Taken[]> {
    const rows = requests.map((r) => ({
      key: r.key,
      window_start: r.windowStart.toISOString(),
      window_end: r.windowEnd.toISOString(),
      quota: r.quota,
      block: r.block,
    }));
    const res = await this.db.raw(TAKE, [JSON.stringify(rows)]);
    return (res as { rows: Taken[] }).rows;
  }
}

/** Deletes the windows that ended before `before`; how many. */
export async function deleteEndedWindows(db: Knex, before: Date): Promise<number> {
  return db('rate_limit_windows').where('window_end', '<', before).delete();
}
