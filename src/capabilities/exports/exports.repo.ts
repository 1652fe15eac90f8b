// The exports table: requests, claims with a lease, progress, the finished
// file, retries and the expiry sweep. Every change is one short statement; the
// document is built between the claim and `complete`, outside any transaction.
// "Due", "lease expired" and "expired" are judged by the injected clock, never
// SQL now(), so tests can move time.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import { COLUMNS, type ExportRow } from './exports.read.js';

/** NOTIFY channel that wakes export workers in every process. */
export const EXPORTS_CHANNEL = 'exports';

export interface Claimed {
  tenant_id: string;
  id: string;
  contact_id: string;
  attempts: number;
  lease_token: string;
}

/**
 * Queues an export unless the contact has an active one. Returns the row
 * with this id (new, or written by an earlier run of the same idempotent
 * request), or the active export that stands in the way.
 */
export async function requestExport(
  db: Db,
  row: { tenant_id: string; id: string; contact_id: string; requested_by: { type: string; id: string }; created_at: Date },
): Promise<{ created: ExportRow } | { active: ExportRow }> {
  // Two rounds at most: a conflict with an active export that finishes before we read it leaves room.
  for (let round = 0; ; round++) {
    const inserted: ExportRow[] = await db('exports')
      .insert({ ...row, requested_by: JSON.stringify(row.requested_by), status: 'queued', progress: 0 })
      .onConflict()
      .ignore()
      .returning(COLUMNS);
    if (inserted[0]) return { created: inserted[0] };
    const mine: ExportRow | undefined = await db('exports').where({ tenant_id: row.tenant_id, id: row.id }).first(COLUMNS);
    if (mine) return { created: mine };
    const active: ExportRow | undefined = await db('exports')
      .where({ tenant_id: row.tenant_id, contact_id: row.contact_id })
      .whereIn('status', ['queued', 'running'])
      .first(COLUMNS);
    if (active) return { active };
    if (round > 0) throw new Error(`export ${row.id} conflicts with a row that is not there`);
  }
}

/** Wakes the workers of every process (after the request committed). */
export async function announce(db: Knex): Promise<void> {
  await db.raw('SELECT pg_notify(?, ?)', [EXPORTS_CHANNEL, '']);
}

/**
 * Claims the oldest claimable export of any workspace: queued (and not waiting
 * out a retry delay), or running under a lease that ran out (its worker died).
 * FOR UPDATE SKIP LOCKED, so processes never claim the same row; the lease
 * token names the holder for every later write.
 */
export async function claimNext(db: Knex, now: Date, leaseMs: number): Promise<Claimed | null> {
  const res = await db.raw(
    `WITH pick AS (
       SELECT tenant_id, id FROM exports
        WHERE status IN ('queued', 'running') AND (leased_until IS NULL OR leased_until <= :now)
        ORDER BY created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE exports e SET status = 'running', leased_until = :until, lease_token = :token, attempts = e.attempts + 1,
            started_at = coalesce(e.started_at, :now)
       FROM pick WHERE e.tenant_id = pick.tenant_id AND e.id = pick.id
     RETURNING e.tenant_id, e.id, e.contact_id, e.attempts, e.lease_token`,
    { now, until: new Date(now.getTime() + leaseMs), token: randomUUID() },
  );
  return (res.rows[0] as Claimed | undefined) ?? null;
}

const held = (db: Db, c: Claimed) => db('exports').where({ tenant_id: c.tenant_id, id: c.id, lease_token: c.lease_token, status: 'running' });

/** Records progress and renews the lease; false when the lease is no longer ours (taken over, or the row is gone). */
export async function heartbeat(db: Db, c: Claimed, progress: number, now: Date, leaseMs: number): Promise<boolean> {
  return (await held(db, c).update({ progress, leased_until: new Date(now.getTime() + leaseMs) })) > 0;
}

/** Stores the finished file; false when the lease is no longer ours (nothing is written then). */
export async function complete(db: Db, c: Claimed, file: Buffer, size: number, now: Date, ttlHours: number): Promise<boolean> {
  const n = await held(db, c).update({
    status: 'completed',
    file,
    size,
    progress: 1,
    error: null,
    completed_at: now,
    expires_at: new Date(now.getTime() + ttlHours * 3600_000),
    leased_until: null,
    lease_token: null,
  });
  return n > 0;
}

/** A failed attempt: queued again after `retryAt`, or failed for good. */
export async function fail(db: Db, c: Claimed, error: string, retryAt: Date | null): Promise<void> {
  await held(db, c).update(
    retryAt
      ? { status: 'queued', leased_until: retryAt, lease_token: null, error, progress: 0 }
      : { status: 'failed', leased_until: null, lease_token: null, error, file: null },
  );
}

/** Drops the export we hold (its contact was erased under it). */
export async function drop(db: Db, c: Claimed): Promise<void> {
  await db('exports').where({ tenant_id: c.tenant_id, id: c.id, lease_token: c.lease_token }).delete();
}

/** Deletes the files of completed exports whose time is up and marks them expired (every workspace). */
export async function expireDue(db: Knex, now: Date): Promise<number> {
  return db('exports').where({ status: 'completed' }).andWhere('expires_at', '<=', now).update({ status: 'expired', file: null });
}
