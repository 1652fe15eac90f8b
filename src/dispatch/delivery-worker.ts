// Delivery workers: claim due deliveries, post them, settle them. Woken by
// NOTIFY (from the dispatcher's transaction or a republish) so a healthy
// delivery leaves within milliseconds, with a poll tick as the safety net for a
// lost notification and for deliveries that come due with time. Every process
// may run one; SKIP LOCKED and leases keep them from sending the same row at
// once, and a lease that outlives a crashed process lets another take over.
import type { Knex } from 'knex';
import { coalescing, type Worker } from '../platform/worker.js';
import { batched } from '../platform/db/batched.js';
import type { PgNotifier } from '../eventstore/pg-notifier.js';
import type { Clock } from '../platform/clock.js';
import { SEALED, type Forgettable } from '../eventstore/forgettable.js';
import type { Logger } from '../platform/logger.js';
import { claimDue, DELIVERIES_CHANNEL, settleMany, type Claimed, type Finished, type TargetKind } from './deliveries.repo.js';
import { afterAttempt } from './retry-policy.js';
import type { Sender, SendResult } from './sender.js';

export interface DeliveryWorkerOptions {
  /** retry base delay in seconds (spec: 30) */
  retryBaseSeconds: number;
  /** HTTP timeout; the lease is longer, so a slow but live send is never taken over */
  timeoutMs: number;
  /** sends in flight in this process (default 256) */
  maxInFlight?: number;
  /** sends in flight per endpoint or channel (default 2), so a hanging receiver holds only these */
  perTarget?: number;
  /** sends in flight for a target whose last answer was a quick 2xx (default 16), so a busy healthy one keeps up */
  perFastTarget?: number;
  pollMs?: number;
}

/** Told about every finished attempt (metrics); must not throw. */
export interface DeliveryObserver {
  attempted(a: {
    targetKind: TargetKind;
    /** where the attempt left the delivery: delivered, pending (a retry is due later) or dead */
    state: 'delivered' | 'pending' | 'dead';
    durationMs: number;
    /** creation of the delivery → its 2xx; null unless delivered */
    latencyMs: number | null;
  }): void;
}

export interface DeliveryWorkerDeps {
  /** optional: the composition root passes one to count attempts */
  deliveryObserver?: DeliveryObserver;
  db: Knex;
  notifier: PgNotifier;
  clock: Clock;
  log: Logger;
  /**
   * The secret a delivery to this target is signed with, opened; null when there is none. The capabilities
   * that own the secrets hand it in (dispatch names none of their tables).
   */
  signingSecret(db: Knex, kind: TargetKind, tenantId: string, targetId: string): Promise<string | null>;
  /** opens the sealed personal fields of a body at send time */
  forgettable: Forgettable;
  sender: Sender;
  /**
   * Senders for targets whose URL is not http(s), by URL scheme (`email:`: an e-mail channel's replies, sent
   * through the SMTP relay). Handed in by the capabilities that own them; such a target has no signing secret.
   */
  transports?: Readonly<Record<string, DeliveryTransport>>;
  /**
   * What a channel's bridge gets that the stored body does not say, added at send time: a bridge holds the
   * channel's secret, not an API key, so an uploaded file comes with a download URL that works without one until
   * it expires (made now, so a retry days later still carries a live one). Handed in by the capabilities.
   */
  forBridge?(tenantId: string, body: string): string;
}

/** Sends one delivery to a target of its scheme; the body is the event envelope, personal fields opened. */
export type DeliveryTransport = (delivery: Pick<Claimed, 'id' | 'tenant_id' | 'target_id' | 'url' | 'seq' | 'attempts'>, body: string) => Promise<SendResult>;

/**
 * The bytes to send for a stored body: personal fields opened with their
 * subjects' data keys (null once erased). A body with nothing sealed is sent
 * exactly as stored; a bridge's with what `forBridge` adds.
 */
async function bodyToSend(db: Knex, deps: Pick<DeliveryWorkerDeps, 'forgettable' | 'forBridge'>, c: Claimed): Promise<string> {
  // A sealed payload ("$sealed") or a sealed value ("$sealed_value": a rule's call carries a conversation answer).
  const opened = c.body.includes(`"${SEALED}`) ? JSON.stringify(await deps.forgettable.reveal(db, c.tenant_id, JSON.parse(c.body))) : c.body;
  return c.target_kind === 'channel' && deps.forBridge ? deps.forBridge(c.tenant_id, opened) : opened;
}

const SECRET_CACHE_MAX = 10_000;
const FAST_MS = 1000;
const FAST_TARGETS_MAX = 10_000;

/**
 * The signing secret of a delivery's target, opened at send time; null when it
 * cannot be. Endpoint secrets never change, so they are kept once opened (an
 * endpoint's deletion removes its deliveries, so a stale entry is never used). A rule's, likewise.
 */
async function secretFor(db: Knex, lookup: DeliveryWorkerDeps['signingSecret'], c: Claimed, cache: Map<string, string>): Promise<string | null> {
  if (c.target_kind !== 'channel') {
    const cached = cache.get(`${c.tenant_id}:${c.target_id}`);
    if (cached) return cached;
    const secret = await lookup(db, c.target_kind, c.tenant_id, c.target_id);
    if (secret === null) return null;
    if (cache.size >= SECRET_CACHE_MAX) cache.clear();
    cache.set(`${c.tenant_id}:${c.target_id}`, secret);
    return secret;
  }
  // Channel replies are signed with the channel's current secret (spec 5.6), which rotates: never cached.
  return lookup(db, 'channel', c.tenant_id, c.target_id);
}

/**
 * How the dispatcher hands the deliveries it creates to the worker of its own
 * process: it reserves a send slot per delivery (within the worker's caps),
 * creates the rows already leased to the worker, and once they are committed
 * hands them over. A fresh delivery then leaves without a NOTIFY and a claim
 * (two round trips and a wake-up on its way). What does not fit waits in the
 * table for any process's worker, as before; a lease whose process dies runs
 * out and another worker takes the row.
 */
export interface Handoff {
  /** the lease to create a handed-over delivery with */
  readonly leaseMs: number;
  /** Takes a send slot for one delivery to the target, if the worker has room now; false when not. */
  reserve(targetId: string): boolean;
  /** Gives back slots reserved for deliveries that were not created after all. */
  release(targetIds: readonly string[]): void;
  /** Sends deliveries created leased to this worker; their slots were reserved. */
  adopt(claimed: readonly Claimed[]): void;
}

export interface DeliveryWorker extends Worker, Handoff {
  kick(): void;
  /**
   * Resolves once a pass that began after the call has finished and every send
   * it started is recorded: the worker had its chance to deliver whatever was
   * due. Tests wait on it before asserting that nothing was sent.
   */
  settled(): Promise<void>;
}

export function deliveryWorker(deps: DeliveryWorkerDeps, opts: DeliveryWorkerOptions): DeliveryWorker {
  const { db, notifier, clock, log, signingSecret, sender } = deps;
  const maxInFlight = opts.maxInFlight ?? 256;
  const perTarget = opts.perTarget ?? 2;
  const perFastTarget = opts.perFastTarget ?? 16;
  const leaseMs = opts.timeoutMs + Math.max(5_000, opts.timeoutMs);
  const inFlight = new Set<Promise<void>>();
  /** sends in flight or reserved in this process, per target (the caps of handed-over deliveries) */
  const busy = new Map<string, number>();
  let reserved = 0;
  const secrets = new Map<string, string>();
  // Slow start: a target begins at the small cap and earns the large one by answering 2xx within
  // FAST_MS; one failure or slow answer takes it back. A hanging receiver never gets past the small cap.
  const fast = new Set<string>();
  /**
   * Whether due deliveries may be waiting in the table for a send of this worker to finish: the last claim left
   * some behind (a target at its cap, no room), or nothing was claimed yet. A finished send claims again only then:
   * with every fresh delivery handed over by the dispatcher, a claim after each send found nothing, one statement
   * (planned each time) an event. What comes into the table otherwise is announced (the dispatcher's NOTIFY for rows
   * it could not hand over, a republish's) or comes due with time (a retry, a lease run out): the poll tick's pass.
   */
  let mayWait = true;
  /**
   * Whether a send finished while a claim was in flight. That claim's snapshot may predate the send's settle: it
   * counts the send's slot as busy, leaves rows behind, and sets `mayWait` only after the send looked at it and did
   * not kick. Its pass then claims again instead of ending; without that, the rows waited for the poll tick
   * (test/webhooks/worker-claims.int.test.ts failed so under CI's load).
   */
  let claiming = false;
  let finishedWhileClaiming = false;
  let stopped = true;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => void) | null = null;
  /**
   * Group settle (platform/db/batched.ts): the first finished send is written at once; sends that finish while
   * that write runs are written together by the next one. No added latency when idle, one statement for many
   * under load. A write that fails is logged, not thrown: its leases run out and another pass sends those
   * deliveries again (at-least-once, never lost).
   */
  const record = batched<Finished, void>(async (_key, batch) => {
    try {
      await settleMany(db, batch, opts.retryBaseSeconds);
    } catch (e) {
      log.warn({ err: e, deliveries: batch.map((f) => f.claimed.id) }, 'could not record webhook attempts');
    }
    return batch.map(() => undefined);
  });

  async function deliver(c: Claimed): Promise<void> {
    const startedAt = clock.now();
    let result: SendResult;
    try {
      const transport = deps.transports?.[c.url.slice(0, c.url.indexOf(':') + 1)];
      const secret = transport ? null : await secretFor(db, signingSecret, c, secrets);
      result = transport
        ? await transport(c, await bodyToSend(db, deps, c))
        : secret === null
          ? { status: null, error: 'no signing secret is available for this target', durationMs: 0 }
          : await sender.post(c.url, await bodyToSend(db, deps, c), secret);
    } catch (e) {
      result = { status: null, error: `could not send: ${(e as Error).message}`, durationMs: 0 };
    }
    if (result.error === null && result.durationMs < FAST_MS) {
      if (fast.size >= FAST_TARGETS_MAX) fast.clear();
      fast.add(c.target_id);
    } else fast.delete(c.target_id);
    const finishedAt = clock.now();
    await record('', { claimed: c, result, startedAt, finishedAt });
    if (deps.deliveryObserver) {
      const { state } = afterAttempt(result.error === null, c.attempts + 1, finishedAt, opts.retryBaseSeconds, result.permanent === true);
      deps.deliveryObserver.attempted({
        targetKind: c.target_kind,
        state,
        durationMs: result.durationMs,
        latencyMs: state === 'delivered' ? finishedAt.getTime() - new Date(c.created_at).getTime() : null,
      });
    }
    if (result.error) log.info({ delivery_id: c.id, target: c.target_kind, seq: c.seq, status: result.status, error: result.error }, 'webhook attempt failed');
  }

  async function pass(): Promise<void> {
    while (!stopped) {
      // With no room the claim is not sent, and says rows may have been left behind.
      const room = maxInFlight - inFlight.size;
      claiming = true;
      finishedWhileClaiming = false;
      let claim: Awaited<ReturnType<typeof claimDue>>;
      try {
        claim = await claimDue(db, clock.now(), { capacity: room, perTarget, perFastTarget, fastTargets: [...fast], leaseMs });
      } finally {
        claiming = false;
      }
      const { claimed, leftBehind } = claim;
      mayWait = leftBehind;
      if (claimed.length === 0 && !(leftBehind && finishedWhileClaiming)) return;
      for (const c of claimed) {
        busy.set(c.target_id, (busy.get(c.target_id) ?? 0) + 1);
        launch(c);
      }
    }
  }

  /** Sends one delivery whose slot in `busy` is already counted. */
  function launch(c: Claimed): void {
    const p: Promise<void> = deliver(c).finally(() => {
      inFlight.delete(p);
      const n = (busy.get(c.target_id) ?? 1) - 1;
      if (n > 0) busy.set(c.target_id, n);
      else busy.delete(c.target_id);
      // A slot is free: for a delivery the last claim left behind, if it left any (the claim in flight sees to it).
      if (claiming) finishedWhileClaiming = true;
      else if (mayWait) kick();
    });
    inFlight.add(p);
  }

  function reserve(targetId: string): boolean {
    const n = busy.get(targetId) ?? 0;
    if (stopped || inFlight.size + reserved >= maxInFlight || n >= (fast.has(targetId) ? perFastTarget : perTarget)) return false;
    busy.set(targetId, n + 1);
    reserved++;
    return true;
  }

  function release(targetIds: readonly string[]): void {
    for (const t of targetIds) {
      reserved--;
      const n = (busy.get(t) ?? 1) - 1;
      if (n > 0) busy.set(t, n);
      else busy.delete(t);
    }
  }

  function adopt(claimed: readonly Claimed[]): void {
    // Stopped between the reservation and the commit: the rows stay leased until their lease runs out, then any
    // worker sends them.
    if (stopped) return release(claimed.map((c) => c.target_id));
    for (const c of claimed) {
      reserved--;
      launch(c);
    }
  }

  // One pass at a time; a kick during a pass makes it run once more.
  const passes = coalescing(
    async () => {
      await pass().catch((e) => log.warn({ err: e }, 'webhook worker pass failed'));
      return 0;
    },
    () => stopped,
  );

  function kick(): void {
    if (!stopped) void passes.tick();
  }

  async function settled(): Promise<void> {
    // A kick during a pass makes that pass run once more, so waiting for it covers a pass that began after this
    // call; a send that finishes kicks again when a claim left deliveries behind, and is settled (recorded) before
    // it counts as finished.
    kick();
    for (;;) {
      await passes.idle();
      if (inFlight.size === 0) return;
      await Promise.allSettled([...inFlight]);
    }
  }

  return {
    name: 'webhook-delivery-worker',
    kick,
    settled,
    leaseMs,
    reserve,
    release,
    adopt,
    async start() {
      stopped = false;
      // Without LISTEN the poll tick still delivers, only later; a database hiccup at start must not stop the service.
      unlisten = await notifier
        .listen(DELIVERIES_CHANNEL, () => kick())
        .catch((e) => {
          log.warn({ err: e }, 'webhook worker could not LISTEN; polling only until it reconnects');
          return null;
        });
      timer = setInterval(kick, opts.pollMs ?? 500);
      timer.unref();
      kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      unlisten?.();
      await passes.idle();
      // In-flight sends end by their timeout at the latest; their rows are settled before we return.
      await Promise.allSettled([...inFlight]);
      sender.close();
    },
  };
}
