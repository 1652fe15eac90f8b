// A job's items beside the log (job_items): the worker's claims (a lease taken
// with FOR UPDATE SKIP LOCKED, so processes share the work and a dead one's
// claims are taken over when their lease runs out) and each item's outcome.
// "Due" and "expired" are judged by the injected clock, never SQL now().
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';

/** NOTIFY channel that wakes the job workers of every process. */
export const JOBS_CHANNEL = 'jobs';

export type ItemStatus = 'pending' | 'succeeded' | 'failed' | 'skipped' | 'canceled';

export interface ClaimedItem {
  tenant_id: string;
  job_id: string;
  ord: number;
  conversation_id: string;
  attempts: number;
}

export async function insertItems(db: Db, tenantId: string, jobId: string, conversationIds: readonly string[]): Promise<void> {
  await db.raw(
    `INSERT INTO job_items (tenant_id, job_id, ord, conversation_id)
     SELECT ?::uuid, ?::uuid, o::int - 1, c FROM unnest(?::uuid[]) WITH ORDINALITY AS x(c, o)`,
    [tenantId, jobId, [...conversationIds]],
  );
}

/**
 * Claims up to `limit` pending items of queued jobs, by position first, so jobs running at once (of any workspace)
 * take turns instead of one large job holding up the others.
 */
export async function claimItems(db: Knex, now: Date, leaseMs: number, limit: number): Promise<ClaimedItem[]> {
  const res = await db.raw(
    `WITH pick AS (
       SELECT i.tenant_id, i.job_id, i.ord FROM job_items i
         JOIN jobs j ON j.tenant_id = i.tenant_id AND j.id = i.job_id AND j.state = 'queued'
        WHERE i.status = 'pending' AND (i.leased_until IS NULL OR i.leased_until <= :now)
        ORDER BY i.ord, j.created_at, i.job_id
        LIMIT :limit
        FOR UPDATE OF i SKIP LOCKED
     )
     UPDATE job_items i SET leased_until = :until, attempts = i.attempts + 1
       FROM pick WHERE i.tenant_id = pick.tenant_id AND i.job_id = pick.job_id AND i.ord = pick.ord
     RETURNING i.tenant_id, i.job_id, i.ord, i.conversation_id, i.attempts`,
    { now, until: new Date(now.getTime() + leaseMs), limit },
  );
  return res.rows as ClaimedItem[];
}

const itemOf = (db: Db, i: Pick<ClaimedItem, 'tenant_id' | 'job_id' | 'ord'>) =>
  db('job_items').where({ tenant_id: i.tenant_id, job_id: i.job_id, ord: i.ord });

/** An item's outcome, once: an item that has one already (canceled meanwhile) keeps it, and false says so. */
export async function settleItem(
  db: Db,
  i: Pick<ClaimedItem, 'tenant_id' | 'job_id' | 'ord'>,
  status: Exclude<ItemStatus, 'pending'>,
  at: Date,
  error: { code: string; message: string } | null = null,
): Promise<boolean> {
  const n = await itemOf(db, i)
    .andWhere({ status: 'pending' })
    .update({ status, error_code: error?.code ?? null, error_message: error?.message ?? null, finished_at: at, leased_until: null });
  return n > 0;
}

/**
 * Lets an item's claim go at `retryAt` (a failed attempt, a rate limit): the next attempt waits until then. A claim
 * handed back untried (`untried`: the rate budget was spent, the worker stopped) gives back the attempt it counted,
 * so waiting never uses up the attempts a failing command has.
 */
export async function releaseItem(db: Db, i: Pick<ClaimedItem, 'tenant_id' | 'job_id' | 'ord'>, retryAt: Date, untried = false): Promise<void> {
  await itemOf(db, i)
    .andWhere({ status: 'pending' })
    .update({ leased_until: retryAt, ...(untried ? { attempts: db.raw('greatest(attempts - 1, 0)') } : {}) });
}

/** The items not yet done of a canceled job. */
export async function cancelItems(db: Db, tenantId: string, jobId: string, at: Date): Promise<void> {
  await db('job_items').where({ tenant_id: tenantId, job_id: jobId, status: 'pending' }).update({ status: 'canceled', finished_at: at, leased_until: null });
}

export type ItemCounts = Record<ItemStatus, number>;

export async function itemCounts(db: Db, tenantId: string, jobId: string): Promise<ItemCounts> {
  const rows: { status: ItemStatus; n: string }[] = await db('job_items')
    .where({ tenant_id: tenantId, job_id: jobId })
    .groupBy('status')
    .select('status', db.raw('count(*) AS n'));
  const counts: ItemCounts = { pending: 0, succeeded: 0, failed: 0, skipped: 0, canceled: 0 };
  for (const r of rows) counts[r.status] = Number(r.n);
  return counts;
}

/** Queued jobs with no item pending (every workspace): the ones to complete. */
export async function finishedJobs(db: Knex, limit: number): Promise<{ tenant_id: string; id: string }[]> {
  const res = await db.raw(
    `SELECT j.tenant_id, j.id FROM jobs j
      WHERE j.state = 'queued'
        AND NOT EXISTS (SELECT 1 FROM job_items i WHERE i.tenant_id = j.tenant_id AND i.job_id = j.id AND i.status = 'pending')
      LIMIT ?`,
    [limit],
  );
  return res.rows as { tenant_id: string; id: string }[];
}

export async function announce(db: Db): Promise<void> {
  await db.raw('SELECT pg_notify(?, ?)', [JOBS_CHANNEL, '']);
}
