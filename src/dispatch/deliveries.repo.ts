// The delivery outbox: rows the dispatcher creates, workers claim and settle,
// and the delivery log reads. Every state change here is one short
// transaction; the HTTP call happens between `claim` and `settle`, outside any.
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { afterAttempt } from './retry-policy.js';
import type { SendResult } from './sender.js';

/** NOTIFY channel that wakes delivery workers in every process. */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

export interface NewDelivery {
  id: string;
  tenant_id: string;
  target_kind: 'endpoint' | 'channel';
  target_id: string;
  series: number;
  seq: number;
  event_type: string;
  url: string;
  body: string;
  created_at: Date;
}

export interface DeliveryRow extends NewDelivery {
  ord: number;
  state: 'pending' | 'delivered' | 'dead';
  attempts: number;
  next_attempt_at: Date | null;
  leased_until: Date | null;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
}

export interface Claimed {
  id: string;
  tenant_id: string;
  target_kind: 'endpoint' | 'channel';
  target_id: string;
  seq: number;
  url: string;
  body: string;
  attempts: number;
  lease_token: string;
}

export interface ClaimLimits {
  /** how many this worker may start now */
  capacity: number;
  /** at most this many in flight per target across every process */
  perTarget: number;
  leaseMs: number;
}

/** Idempotent: a delivery already created for (target, seq, series) is left as it is. */
export async function insertDeliveries(db: Knex | Knex.Transaction, rows: NewDelivery[]): Promise<number> {
  if (rows.length === 0) return 0;
  const res = await db('webhook_deliveries')
    .insert(rows.map((r) => ({ ...r, state: 'pending', attempts: 0, next_attempt_at: r.created_at })))
    .onConflict(['tenant_id', 'target_kind', 'target_id', 'seq', 'series'])
    .ignore()
    .returning('id');
  return res.length;
}

/**
 * Claims due deliveries with FOR UPDATE SKIP LOCKED and a lease. Per-target
 * fairness: candidates are at most `perTarget` per target, and targets that
 * already have `perTarget` leases out are skipped, so a backlog behind one
 * hanging receiver never fills the batch. A transaction-level advisory lock
 * per target makes the in-flight count and the new leases one step across
 * processes (a second claimer skips that target instead of over-filling it).
 * "Due" and "lease expired" are judged by the injected clock (`now`), never SQL now().
 */
export async function claimDue(db: Knex, now: Date, limits: ClaimLimits): Promise<Claimed[]> {
  if (limits.capacity <= 0) return [];
  return db.transaction(async (trx) => {
    const candidates = await trx.raw(
      `SELECT id FROM (
         SELECT d.id, d.next_attempt_at, d.ord,
                row_number() OVER (PARTITION BY d.target_id ORDER BY d.next_attempt_at, d.ord) AS rn
           FROM webhook_deliveries d
          WHERE d.state = 'pending' AND d.next_attempt_at <= ?
            AND (d.leased_until IS NULL OR d.leased_until <= ?)
            AND (d.target_kind = 'channel' OR EXISTS (
                  SELECT 1 FROM webhook_endpoints e WHERE e.tenant_id = d.tenant_id AND e.id = d.target_id AND e.enabled))
            AND d.target_id NOT IN (
                  SELECT f.target_id FROM webhook_deliveries f
                   WHERE f.state = 'pending' AND f.leased_until IS NOT NULL AND f.leased_until > ?
                   GROUP BY f.target_id HAVING count(*) >= ?)
       ) x
       WHERE rn <= ?
       ORDER BY next_attempt_at, ord
       LIMIT ?`,
      [now, now, now, limits.perTarget, limits.perTarget, limits.capacity * 2],
    );
    const ids = (candidates.rows as { id: string }[]).map((r) => r.id);
    if (ids.length === 0) return [];
    const locked = await trx.raw(
      `SELECT id, target_id FROM webhook_deliveries
        WHERE id = ANY(?::uuid[]) AND state = 'pending' AND next_attempt_at <= ?
          AND (leased_until IS NULL OR leased_until <= ?)
        ORDER BY next_attempt_at, ord
        FOR UPDATE SKIP LOCKED`,
      [ids, now, now],
    );
    const rows = locked.rows as { id: string; target_id: string }[];
    const targets = [...new Set(rows.map((r) => r.target_id))];
    if (targets.length === 0) return [];
    const mine = await trx.raw(
      `SELECT t::text AS target_id FROM unnest(?::uuid[]) AS t
        WHERE pg_try_advisory_xact_lock(hashtextextended('webhook_target:' || t::text, 0))`,
      [targets],
    );
    const lockedTargets = (mine.rows as { target_id: string }[]).map((r) => r.target_id);
    if (lockedTargets.length === 0) return [];
    const busy = await trx.raw(
      `SELECT target_id::text AS target_id, count(*)::int AS n FROM webhook_deliveries
        WHERE state = 'pending' AND leased_until IS NOT NULL AND leased_until > ? AND target_id = ANY(?::uuid[])
        GROUP BY target_id`,
      [now, lockedTargets],
    );
    const room = new Map<string, number>(lockedTargets.map((t) => [t, limits.perTarget]));
    for (const b of busy.rows as { target_id: string; n: number }[]) room.set(b.target_id, limits.perTarget - b.n);
    const picked: string[] = [];
    for (const r of rows) {
      if (picked.length >= limits.capacity) break;
      const left = room.get(r.target_id) ?? 0;
      if (left <= 0) continue;
      room.set(r.target_id, left - 1);
      picked.push(r.id);
    }
    if (picked.length === 0) return [];
    const leaseToken = randomUUID();
    const claimed = await trx('webhook_deliveries')
      .whereIn('id', picked)
      .update({ leased_until: new Date(now.getTime() + limits.leaseMs), lease_token: leaseToken })
      .returning(['id', 'tenant_id', 'target_kind', 'target_id', 'seq', 'url', 'body', 'attempts', 'lease_token']);
    return claimed as Claimed[];
  });
}

/**
 * Records the attempt and moves the delivery on. Only the lease holder moves
 * it: a worker whose lease expired and was taken over still logs its attempt
 * (it did happen) but leaves the state to the new holder.
 */
export async function settle(db: Knex, c: Claimed, result: SendResult, at: { startedAt: Date; finishedAt: Date }, baseSeconds: number): Promise<void> {
  const attempt = c.attempts + 1;
  const outcome = afterAttempt(result.error === null, attempt, at.finishedAt, baseSeconds);
  await db.transaction(async (trx) => {
    await trx('webhook_deliveries')
      .where({ id: c.id, lease_token: c.lease_token })
      .update({
        attempts: attempt,
        state: outcome.state,
        last_status: result.status,
        last_error: result.error,
        last_attempt_at: at.startedAt,
        next_attempt_at: outcome.state === 'pending' ? outcome.nextAttemptAt : null,
        delivered_at: outcome.state === 'delivered' ? at.finishedAt : null,
        leased_until: null,
        lease_token: null,
      });
    await trx.raw(
      `INSERT INTO webhook_delivery_attempts (delivery_id, tenant_id, attempt, status, error, duration_ms, at)
       SELECT id, tenant_id, ?, ?, ?, ?, ? FROM webhook_deliveries WHERE id = ?`,
      [attempt, result.status, result.error, result.durationMs, at.startedAt, c.id],
    );
  });
}

/** Republish (spec 2.3, 6.1.2): a new delivery of the same event bytes, in the next series. */
export async function republish(db: Knex, source: DeliveryRow, url: string, now: Date, id: string): Promise<DeliveryRow> {
  for (let tries = 0; ; tries++) {
    try {
      return await db.transaction(async (trx) => {
        const max = await trx('webhook_deliveries')
          .where({ tenant_id: source.tenant_id, target_kind: source.target_kind, target_id: source.target_id, seq: source.seq })
          .max<{ m: number | null }[]>({ m: 'series' });
        const row: NewDelivery = {
          id,
          tenant_id: source.tenant_id,
          target_kind: source.target_kind,
          target_id: source.target_id,
          series: Number(max[0]?.m ?? 0) + 1,
          seq: source.seq,
          event_type: source.event_type,
          url,
          body: source.body,
          created_at: now,
        };
        // A plain insert: losing the race for this series must fail (and retry), not be ignored.
        await trx('webhook_deliveries').insert({ ...row, state: 'pending', attempts: 0, next_attempt_at: now });
        await trx.raw('SELECT pg_notify(?, ?)', [DELIVERIES_CHANNEL, '']);
        return (await trx('webhook_deliveries').where({ id }).first()) as DeliveryRow;
      });
    } catch (e) {
      // Two republishes of one seq raced for the same series number: take the next one.
      if ((e as { code?: string }).code !== '23505' || tries >= 5) throw e;
    }
  }
}
