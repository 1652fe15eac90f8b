// Delivery workers: claim due deliveries, post them, settle them. Woken by
// NOTIFY (from the dispatcher's transaction or a republish) so a healthy
// delivery leaves within milliseconds, with a poll tick as the safety net for a
// lost notification and for deliveries that come due with time. Every process
// may run one; SKIP LOCKED and leases keep them from sending the same row at
// once, and a lease that outlives a crashed process lets another take over.
import type { Knex } from 'knex';
import type { Worker } from '../capabilities/capability.js';
import type { PgNotifier } from '../eventstore/pg-notifier.js';
import type { Clock } from '../platform/clock.js';
import type { Sealer } from '../platform/crypto/seal.js';
import type { Logger } from '../platform/logger.js';
import { claimDue, DELIVERIES_CHANNEL, settle, type Claimed } from './deliveries.repo.js';
import type { Sender, SendResult } from './sender.js';

export interface DeliveryWorkerOptions {
  /** retry base delay in seconds (spec: 30) */
  retryBaseSeconds: number;
  /** HTTP timeout; the lease is longer, so a slow but live send is never taken over */
  timeoutMs: number;
  /** sends in flight in this process */
  maxInFlight?: number;
  /** sends in flight per endpoint or channel, across processes */
  perTarget?: number;
  pollMs?: number;
}

export interface DeliveryWorkerDeps {
  db: Knex;
  notifier: PgNotifier;
  clock: Clock;
  log: Logger;
  sealer: Sealer;
  sender: Sender;
}

/** The signing secret of a delivery's target, opened at send time; null when it cannot be. */
async function secretFor(db: Knex, sealer: Sealer, c: Claimed): Promise<string | null> {
  if (c.target_kind === 'endpoint') {
    const row = await db('webhook_endpoint_secrets').where({ tenant_id: c.tenant_id, endpoint_id: c.target_id }).first('sealed');
    return row ? sealer.open('webhook', c.tenant_id, c.target_id, row.sealed) : null;
  }
  // Channel replies are signed with the channel's current secret (spec 5.6).
  const row = await db('channel_secrets').where({ tenant_id: c.tenant_id, channel_id: c.target_id }).whereNull('valid_until').first('sealed');
  return row ? sealer.open('channel', c.tenant_id, c.target_id, row.sealed) : null;
}

export function deliveryWorker(deps: DeliveryWorkerDeps, opts: DeliveryWorkerOptions): Worker & { kick(): void } {
  const { db, notifier, clock, log, sealer, sender } = deps;
  const maxInFlight = opts.maxInFlight ?? 32;
  const perTarget = opts.perTarget ?? 2;
  const leaseMs = opts.timeoutMs + Math.max(5_000, opts.timeoutMs);
  const inFlight = new Set<Promise<void>>();
  let stopped = true;
  let passing: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => void) | null = null;

  async function deliver(c: Claimed): Promise<void> {
    const startedAt = clock.now();
    let result: SendResult;
    try {
      const secret = await secretFor(db, sealer, c);
      result = secret === null ? { status: null, error: 'no signing secret is available for this target', durationMs: 0 } : await sender.post(c.url, c.body, secret);
    } catch (e) {
      result = { status: null, error: `could not send: ${(e as Error).message}`, durationMs: 0 };
    }
    try {
      await settle(db, c, result, { startedAt, finishedAt: clock.now() }, opts.retryBaseSeconds);
    } catch (e) {
      // The lease runs out and another pass retries the delivery: at-least-once, never lost.
      log.warn({ err: e, delivery_id: c.id }, 'could not record a webhook attempt');
    }
    if (result.error) log.info({ delivery_id: c.id, target: c.target_kind, seq: c.seq, status: result.status, error: result.error }, 'webhook attempt failed');
  }

  async function pass(): Promise<void> {
    while (!stopped) {
      const room = maxInFlight - inFlight.size;
      if (room <= 0) return;
      const claimed = await claimDue(db, clock.now(), { capacity: room, perTarget, leaseMs });
      if (claimed.length === 0) return;
      for (const c of claimed) {
        const p: Promise<void> = deliver(c).finally(() => {
          inFlight.delete(p);
          kick();
        });
        inFlight.add(p);
      }
    }
  }

  function kick(): void {
    if (stopped) return;
    if (passing) {
      again = true;
      return;
    }
    passing = (async () => {
      do {
        again = false;
        await pass().catch((e) => log.warn({ err: e }, 'webhook worker pass failed'));
      } while (again && !stopped);
      passing = null;
    })();
  }

  return {
    name: 'webhook-delivery-worker',
    kick,
    async start() {
      stopped = false;
      unlisten = await notifier.listen(DELIVERIES_CHANNEL, () => kick());
      timer = setInterval(kick, opts.pollMs ?? 500);
      timer.unref();
      kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      unlisten?.();
      await passing;
      // In-flight sends end by their timeout at the latest; their rows are settled before we return.
      await Promise.allSettled([...inFlight]);
      sender.close();
    },
  };
}
