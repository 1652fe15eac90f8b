// The delivery outbox: rows the dispatcher creates, workers claim and settle,
// and the delivery log reads. Every state change here is one short
// transaction; the HTTP call happens between `claim` and `settle`, outside any.
import type { Db } from '../platform/db/database.js';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { afterAttempt } from './retry-policy.js';
import type { SendResult } from './sender.js';

/** NOTIFY channel that wakes delivery workers in every process. */
export const DELIVERIES_CHANNEL = 'webhook_deliveries';

/**
 * Who a delivery is for: a webhook endpoint, a channel's bridge (its replies), or an automation rule's `call_url`
 * (src/capabilities/automation), each signed with its own secret.
 */
export type TargetKind = 'endpoint' | 'channel' | 'rule';

export interface NewDelivery {
  id: string;
  tenant_id: string;
  target_kind: TargetKind;
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
  target_kind: TargetKind;
  target_id: string;
  seq: number;
  url: string;
  body: string;
  attempts: number;
  lease_token: string;
  /** when the delivery was created (the dispatch, or the republish) */
  created_at: Date;
}

export interface ClaimLimits {
  /** how many this worker may start now */
  capacity: number;
  /** at most this many leases out per target (exact within a process, see claimDue) */
  perTarget: number;
  /** targets that have been answering fast, and the larger cap they get */
  fastTargets: string[];
  perFastTarget: number;
  leaseMs: number;
}

/**
 * A delivery the dispatcher creates already leased to a worker of its own
 * process, which sends it without claiming it first (see Handoff in
 * delivery-worker.ts).
 */
export interface LeasedDelivery extends NewDelivery {
  leased_until: Date;
  lease_token: string;
}

/**
 * Idempotent: a delivery already created for (target, seq, series) is left as
 * it is. Returns the ids it created.
 */
export async function insertDeliveries(db: Db, rows: (NewDelivery | LeasedDelivery)[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const res = await db('webhook_deliveries')
    .insert(rows.map((r) => ({ leased_until: null, lease_token: null, ...r, state: 'pending', attempts: 0, next_attempt_at: r.created_at })))
    .onConflict(['tenant_id', 'target_kind', 'target_id', 'seq', 'series'])
    .ignore()
    .returning('id');
  return new Set((res as { id: string }[]).map((r) => r.id));
}

/**
 * A dispatcher's batch that changes no destination, written in one statement (autocommit: no BEGIN, no COMMIT of
 * its own), with the same outcome as the transaction it replaces: the checkpoint compared-and-set from `expected`
 * to `position`, the deliveries inserted only if it moved (ON CONFLICT DO NOTHING, as insertDeliveries), a NOTIFY
 * for the delivery workers when `notify` (delivered at commit), and the commit asynchronous (no wait for the WAL
 * flush: see the dispatcher). `moved` false: the checkpoint was not at `expected`, and nothing was written.
 */
export async function dispatchInOneStatement(
  db: Db,
  checkpoint: { name: string; expected: string; position: string },
  rows: (NewDelivery | LeasedDelivery)[],
  notify: boolean,
): Promise<{ moved: boolean; created: Set<string> }> {
  const res = await db.raw(
    `WITH c AS (
       UPDATE subscription_checkpoints SET position = ? WHERE name = ? AND position = ?
       RETURNING set_config('synchronous_commit', 'off', true)
     ), d AS (
       INSERT INTO webhook_deliveries (id, tenant_id, target_kind, target_id, series, seq, event_type, url, body, created_at,
                                       state, attempts, next_attempt_at, leased_until, lease_token)
       SELECT x.id, x.tenant_id, x.target_kind, x.target_id, x.series, x.seq, x.event_type, x.url, x.body, x.created_at,
              'pending', 0, x.created_at, x.leased_until, x.lease_token
         FROM jsonb_to_recordset(?::jsonb) AS x(id uuid, tenant_id uuid, target_kind text, target_id uuid, series int, seq bigint,
              event_type text, url text, body text, created_at timestamptz, leased_until timestamptz, lease_token uuid)
        WHERE EXISTS (SELECT 1 FROM c)
       ON CONFLICT (tenant_id, target_kind, target_id, seq, series) DO NOTHING
       RETURNING id
     )
     SELECT EXISTS (SELECT 1 FROM c) AS moved, ARRAY(SELECT id FROM d)::text[] AS created,
            CASE WHEN ?::boolean AND EXISTS (SELECT 1 FROM c) THEN pg_notify(?, '') END AS notified`,
    [checkpoint.position, checkpoint.name, checkpoint.expected, JSON.stringify(rows), notify, DELIVERIES_CHANNEL],
  );
  const row = res.rows[0] as { moved: boolean; created: string[] };
  return { moved: row.moved, created: new Set(row.created) };
}

/**
 * Claims due deliveries with FOR UPDATE SKIP LOCKED and a lease, in one
 * statement (one round trip: a healthy delivery should leave in milliseconds).
 * Per-target fairness: a target gets at most its cap of leases minus those it
 * already has out (`perTarget`, or `perFastTarget` for one that has been
 * answering fast), so a backlog behind one hanging receiver never fills the
 * batch. Passes in one process run one at a time, so there the cap is exact;
 * two processes claiming the same target in the same instant can each admit up
 * to the cap (at most processes x perTarget), which costs nothing but fairness.
 * "Due" and "lease expired" are judged by the injected clock (`now`), never SQL now().
 */
export async function claimDue(db: Knex, now: Date, limits: ClaimLimits): Promise<{ claimed: Claimed[]; leftBehind: boolean }> {
  if (limits.capacity <= 0) return { claimed: [], leftBehind: true };
  const res = await db.raw(
    `WITH busy AS (
       SELECT target_id, count(*)::int AS n FROM webhook_deliveries
        WHERE state = 'pending' AND leased_until IS NOT NULL AND leased_until > :now
        GROUP BY target_id
     ), ranked AS (
       SELECT d.id, d.target_id, d.next_attempt_at, d.ord, coalesce(b.n, 0) AS n,
              row_number() OVER (PARTITION BY d.target_id ORDER BY d.next_attempt_at, d.ord) AS rn
         FROM webhook_deliveries d LEFT JOIN busy b USING (target_id)
        WHERE d.state = 'pending' AND d.next_attempt_at <= :now
          AND (d.leased_until IS NULL OR d.leased_until <= :now)
          -- a disabled endpoint's or channel's deliveries wait (pause); a deleted one's are gone. Judged by the
          -- dispatcher's own view of them, which moves with the deliveries it creates.
          -- A rule's calls are made once decided (its deletion removes those not yet delivered).
          AND CASE d.target_kind
                WHEN 'channel' THEN EXISTS (SELECT 1 FROM dispatch_channels c WHERE c.tenant_id = d.tenant_id AND c.channel_id = d.target_id AND c.enabled)
                WHEN 'endpoint' THEN EXISTS (SELECT 1 FROM dispatch_endpoints e WHERE e.tenant_id = d.tenant_id AND e.endpoint_id = d.target_id AND e.enabled)
                ELSE true
              END
     ), pick AS (
       SELECT id FROM ranked WHERE rn + n <= CASE WHEN target_id = ANY(:fast::uuid[]) THEN :fastCap::int ELSE :cap::int END
        ORDER BY next_attempt_at, ord LIMIT :capacity
     ), locked AS (
       -- re-checked on the row's latest version, so a row leased meanwhile by another worker drops out
       SELECT id FROM webhook_deliveries
        WHERE id IN (SELECT id FROM pick) AND state = 'pending' AND (leased_until IS NULL OR leased_until <= :now)
        FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_deliveries d SET leased_until = :until, lease_token = :token
         FROM locked WHERE d.id = locked.id
       RETURNING d.id, d.tenant_id, d.target_kind, d.target_id, d.seq, d.url, d.body, d.attempts, d.lease_token, d.created_at
     )
     -- The claimed rows, each saying whether due rows were left behind (a target's cap, the capacity, another
     -- worker's lock); a row of NULLs saying it when none was claimed.
     SELECT c.*, x.left_behind
       FROM (SELECT (SELECT count(*) FROM ranked) > (SELECT count(*) FROM claimed) AS left_behind) x
       LEFT JOIN claimed c ON true`,
    {
      now,
      cap: limits.perTarget,
      fast: limits.fastTargets,
      fastCap: limits.perFastTarget,
      capacity: limits.capacity,
      until: new Date(now.getTime() + limits.leaseMs),
      token: randomUUID(),
    },
  );
  const rows = res.rows as (Claimed & { left_behind: boolean })[];
  return {
    claimed: rows.filter((r) => r.id !== null).map(({ left_behind: _, ...c }) => c),
    leftBehind: rows[0]?.left_behind === true,
  };
}

export interface Finished {
  claimed: Claimed;
  result: SendResult;
  startedAt: Date;
  finishedAt: Date;
}

/**
 * Records attempts and moves their deliveries on, many in one statement (the
 * worker groups whatever finished while the previous write ran). Only the
 * lease holder moves a delivery: a worker whose lease expired and was taken
 * over still logs its attempt (it did happen) but leaves the state to the new
 * holder. The data-modifying CTE runs whether or not it matched.
 */
export async function settleMany(db: Knex, done: Finished[], baseSeconds: number): Promise<void> {
  if (done.length === 0) return;
  const cols = {
    id: [] as string[],
    token: [] as string[],
    attempt: [] as number[],
    state: [] as string[],
    status: [] as (number | null)[],
    error: [] as (string | null)[],
    started: [] as Date[],
    next: [] as (Date | null)[],
    delivered: [] as (Date | null)[],
    duration: [] as number[],
  };
  for (const f of done) {
    const attempt = f.claimed.attempts + 1;
    const outcome = afterAttempt(f.result.error === null, attempt, f.finishedAt, baseSeconds, f.result.permanent === true);
    cols.id.push(f.claimed.id);
    cols.token.push(f.claimed.lease_token);
    cols.attempt.push(attempt);
    cols.state.push(outcome.state);
    cols.status.push(f.result.status);
    cols.error.push(f.result.error);
    cols.started.push(f.startedAt);
    cols.next.push(outcome.state === 'pending' ? outcome.nextAttemptAt : null);
    cols.delivered.push(outcome.state === 'delivered' ? f.finishedAt : null);
    cols.duration.push(f.result.durationMs);
  }
  await db.raw(
    `WITH x AS (
       SELECT * FROM unnest(?::uuid[], ?::uuid[], ?::int[], ?::text[], ?::int[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[], ?::int[])
         AS x(id, token, attempt, state, status, error, started, next, delivered, duration)
     ), moved AS (
       UPDATE webhook_deliveries d
          SET attempts = x.attempt, state = x.state, last_status = x.status, last_error = x.error, last_attempt_at = x.started,
              next_attempt_at = x.next, delivered_at = x.delivered, leased_until = NULL, lease_token = NULL
         FROM x WHERE d.id = x.id AND d.lease_token = x.token
       RETURNING d.id
     )
     INSERT INTO webhook_delivery_attempts (delivery_id, tenant_id, attempt, status, error, duration_ms, at)
     SELECT d.id, d.tenant_id, x.attempt, x.status, x.error, x.duration, x.started
       FROM x JOIN webhook_deliveries d ON d.id = x.id`,
    // node-pg writes null elements as NULL; knex's binding type just does not admit nullable arrays.
    [
      cols.id,
      cols.token,
      cols.attempt,
      cols.state,
      cols.status,
      cols.error,
      cols.started,
      cols.next,
      cols.delivered,
      cols.duration,
    ] as unknown as Knex.RawBinding[],
  );
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
      if ((e as { code?: string }).code !== '23505') throw e;
      // This very republish was recorded already: a retry (same Idempotency-Key, so the same id) of a
      // request whose answer was lost.
      const done = (await db('webhook_deliveries').where({ id }).first()) as DeliveryRow | undefined;
      if (done) return done;
      // Two republishes of one seq raced for the same series number: take the next one.
      if (tries >= 5) throw e;
    }
  }
}
