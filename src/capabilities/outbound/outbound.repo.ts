// The worker's claims on pending recipients (outbound_claims, beside the log):
// a lease (leased_until, lease_token) taken with FOR UPDATE SKIP LOCKED on the
// recipient, and an upsert that only replaces a claim whose lease ran out, so
// processes share the work and a claim of a dead process is taken over. The claim is only about who
// works on what: every outcome is decided by a command under the workspace's
// append lock, so two processes holding the same recipient (a lease that ran
// out under a slow worker) still start one conversation. "Due" and "expired"
// are judged by the injected clock, never SQL now().
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/** NOTIFY channel that wakes outbound workers in every process. */
export const OUTBOUND_CHANNEL = 'outbound';

export interface ClaimedRecipient {
  tenant_id: string;
  collection_id: string;
  contact_id: string;
  attempts: number;
}

/**
 * Claims up to `limit` pending recipients of sending collections. Ordered by position in the audience first, so
 * collections sending at once (of any workspace) take turns instead of a large one holding up the others.
 */
export async function claimRecipients(db: Knex, now: Date, leaseMs: number, limit: number): Promise<ClaimedRecipient[]> {
  const res = await db.raw(
    `WITH pick AS (
       SELECT r.tenant_id, r.collection_id, r.contact_id FROM outbound_recipients r
         JOIN outbound_collections c ON c.tenant_id = r.tenant_id AND c.id = r.collection_id AND c.state = 'sending'
         LEFT JOIN outbound_claims k ON k.tenant_id = r.tenant_id AND k.collection_id = r.collection_id AND k.contact_id = r.contact_id
        WHERE r.status = 'pending' AND (k.leased_until IS NULL OR k.leased_until <= :now)
        ORDER BY r.position, c.sending_at, r.collection_id
        LIMIT :limit
        FOR UPDATE OF r SKIP LOCKED
     )
     INSERT INTO outbound_claims AS k (tenant_id, collection_id, contact_id, leased_until, lease_token, attempts)
     SELECT tenant_id, collection_id, contact_id, :until, :token, 1 FROM pick
     ON CONFLICT (tenant_id, collection_id, contact_id) DO UPDATE
        SET leased_until = excluded.leased_until, lease_token = excluded.lease_token, attempts = k.attempts + 1
      WHERE k.leased_until <= :now
     RETURNING k.tenant_id, k.collection_id, k.contact_id, k.attempts`,
    { now, until: new Date(now.getTime() + leaseMs), token: randomUUID(), limit },
  );
  return res.rows as ClaimedRecipient[];
}

const claimOf = (db: Knex, r: ClaimedRecipient) =>
  db('outbound_claims').where({ tenant_id: r.tenant_id, collection_id: r.collection_id, contact_id: r.contact_id });

/** Lets a failed attempt's claim go at `retryAt` (the next attempt waits until then). */
export async function release(db: Knex, r: ClaimedRecipient, retryAt: Date): Promise<void> {
  await claimOf(db, r).update({ leased_until: retryAt });
}

/** Drops the claim of a recipient that has its outcome. */
export async function settle(db: Knex, r: ClaimedRecipient): Promise<void> {
  await claimOf(db, r).delete();
}

/** Scheduled collections whose send_at has come (every workspace). */
export async function dueSchedules(db: Knex, now: Date, limit: number): Promise<{ tenant_id: string; id: string }[]> {
  return db('outbound_collections')
    .where({ state: 'scheduled' })
    .andWhere('send_at', '<=', now)
    .orderBy(['send_at', 'id'])
    .limit(limit)
    .select('tenant_id', 'id');
}

/** Sending collections with nothing pending (the recipients' commands normally complete them; this is the safety net). */
export async function finishedSending(db: Knex, limit: number): Promise<{ tenant_id: string; id: string }[]> {
  return db('outbound_collections').where({ state: 'sending', pending: 0 }).limit(limit).select('tenant_id', 'id');
}

export async function announce(db: Knex): Promise<void> {
  await db.raw('SELECT pg_notify(?, ?)', [OUTBOUND_CHANNEL, '']);
}
