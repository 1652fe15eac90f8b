// Fixed-window rate limits that hold across every process sharing the database,
// by token leasing. A window's count lives in one row of the store (one per
// budget and window). A process does not ask the store on every request: it
// takes a block of the window's quota at once (one atomic statement that never
// counts past the quota), spends it locally, and asks for the next block only
// when it runs low, in the background, before it runs out. So:
//
// - the quota is an exact upper bound: every admitted request spent a unit the
//   store counted, and the store never counts past the quota, whatever the
//   number of processes;
// - a request costs no round trip most of the time: a busy budget takes one
//   block per MAX_BLOCK requests, and the block is taken before the last one is
//   spent, so requests do not wait for it;
// - the price: units a process took and has not spent yet are counted, so near
//   the quota another process may refuse up to (block × other processes) early.
//   Blocks adapt to keep that small: a budget starts a window with the block it
//   ended the last one with (one for a budget not seen before), doubles it only
//   when it spent it, and never asks for more than an eighth of what the window
//   has left, so the last units of a window go one at a time. A request that
//   costs several units (Budget.cost) asks for what it lacks at once, whatever
//   the block: it cannot be admitted on fewer.
//
// Nothing here holds a lock across requests: the store's row is locked only for
// the one statement that takes a block, and a process asks for a budget's block
// once at a time (the requests that need it wait for that one answer).
import type { Clock } from '../../platform/clock.js';

export interface Policy {
  /** the name clients see in RateLimit-Policy and RateLimit */
  name: string;
  /** requests one window admits (the draft's q) */
  quota: number;
  /** the window's length in seconds (w); windows start at multiples of it since the Unix epoch, the same in every process */
  windowSeconds: number;
}

/** One budget a request draws from: a policy, and whose budget it is (a key, a workspace, a channel). */
export interface Budget {
  policy: Policy;
  subject: string;
  /**
   * Units the request spends (1 when absent), for requests whose work grows with what they touch (the
   * counts: one per view). At most the quota: a request costing more takes a whole window, rather than none ever.
   */
  cost?: number;
}

/** The units a budget's request spends: its cost, at least one and at most the quota. */
export const unitsOf = (b: Pick<Budget, 'policy' | 'cost'>): number => Math.max(1, Math.min(b.cost ?? 1, b.policy.quota));

export interface TakeRequest {
  /** the budget's row: `<policy>:<subject>` */
  key: string;
  windowStart: Date;
  windowEnd: Date;
  quota: number;
  /** units asked for; the store grants fewer when the window has fewer left */
  block: number;
}

export interface Taken {
  key: string;
  /** the window's count after this take: every unit any process was granted */
  used: number;
  granted: number;
}

/**
 * Where windows are counted for every process. `take` adds min(block, quota − used) to each window's count,
 * atomically per window, and answers what it granted; a window that is used up may be left out of the answer.
 */
export interface WindowStore {
  take(requests: TakeRequest[]): Promise<Taken[]>;
}

/** Where a budget stands after a request: the draft's r (remaining) and t (seconds until the window ends). */
export interface Limit {
  policy: Policy;
  remaining: number;
  resetSeconds: number;
}

export type Verdict = { allowed: true; limits: Limit[] } | { allowed: false; limits: Limit[]; exceeded: Policy[]; retryAfterSeconds: number };

/** The largest block a process takes at once: one store round trip per this many requests of a busy budget. */
export const MAX_BLOCK = 256;
/** A block is at most this fraction of what the window has left (1/8), so the last units go one at a time. */
const SPREAD = 8;
/** How often leases of windows that ended are dropped from memory. */
const FORGET_EVERY_MS = 60_000;

interface Lease {
  key: string;
  windowStart: number;
  windowEnd: number;
  quota: number;
  /** units this process took and has not spent */
  tokens: number;
  /** the window's count in the store (every process's units) when this process last took */
  used: number;
  /** the last block asked for: doubles while the budget is busy, and is carried into its next window */
  block: number;
  /** the take in flight for this lease: one at a time, the requests that need it wait for it */
  taking: Promise<void> | null;
}

export class RateLimiter {
  private readonly leases = new Map<string, Lease>();
  private forgetAt = 0;

  constructor(
    private readonly store: WindowStore,
    private readonly clock: Clock,
    /** a background take that failed (the request that needs the units will ask again, and see the error) */
    private readonly onBackgroundError: (e: unknown) => void = () => undefined,
  ) {}

  /**
   * Spends each budget's units (one, or its cost), or none when one of them has too few left for its
   * window: a refused request costs nothing. Rejects only when the store does (the database is unavailable).
   */
  async acquire(budgets: readonly Budget[]): Promise<Verdict> {
    const now = this.clock.now().getTime();
    this.forgetEnded(now);
    const leases = budgets.map((b) => this.leaseOf(b, now));
    const units = budgets.map(unitsOf);
    const short = () => leases.flatMap((l, i) => (l.tokens < units[i]! ? [{ lease: l, need: units[i]! - l.tokens, i }] : []));
    for (;;) {
      // Between two awaits nothing else runs: checking every lease and spending from each is one step.
      const missing = short();
      if (missing.length === 0) {
        leases.forEach((l, i) => (l.tokens -= units[i]!));
        this.prefetch(leases);
        return { allowed: true, limits: budgets.map((b, i) => limitOf(b.policy, leases[i]!, now)) };
      }
      const usedUp = missing.flatMap((m) => (m.lease.used >= m.lease.quota ? [budgets[m.i]!.policy] : []));
      if (usedUp.length > 0) {
        const limits = budgets.map((b, i) => limitOf(b.policy, leases[i]!, now));
        const retryAfterSeconds = Math.max(...limits.filter((l) => usedUp.includes(l.policy)).map((l) => l.resetSeconds));
        return { allowed: false, limits, exceeded: usedUp, retryAfterSeconds };
      }
      // Each take either grants units or finds the window used up, so this loop ends.
      await this.refill(missing);
    }
  }

  private leaseOf(b: Budget, now: number): Lease {
    const key = `${b.policy.name}:${b.subject}`;
    const ms = b.policy.windowSeconds * 1000;
    const windowStart = Math.floor(now / ms) * ms;
    const known = this.leases.get(key);
    if (known && known.windowStart >= windowStart && known.quota === b.policy.quota) return known;
    const lease: Lease = {
      key,
      windowStart,
      windowEnd: windowStart + ms,
      quota: b.policy.quota,
      tokens: 0,
      used: 0,
      block: known?.block ?? 0,
      taking: null,
    };
    this.leases.set(key, lease);
    return lease;
  }

  /**
   * Waits for units for each lease: one take for those no take is in flight for (asking at least for what the
   * request lacks), and the takes already in flight.
   */
  private async refill(missing: { lease: Lease; need: number }[]): Promise<void> {
    const idle = missing.filter((m) => m.lease.taking === null);
    if (idle.length > 0) {
      const taking = this.take(
        idle.map((m) => m.lease),
        idle.map((m) => m.need),
      );
      for (const m of idle) m.lease.taking = taking;
    }
    await Promise.all(missing.map((m) => m.lease.taking));
  }

  /** Takes the next block, in the background, for each lease down to half its last block while its window has units left. */
  private prefetch(leases: Lease[]): void {
    const low = leases.filter((l) => l.taking === null && l.tokens < l.block / 2 && l.used < l.quota);
    if (low.length === 0) return;
    const taking = this.take(low);
    for (const l of low) l.taking = taking;
    taking.catch(this.onBackgroundError);
  }

  private async take(leases: Lease[], needs: number[] = []): Promise<void> {
    try {
      const asks = leases.map((l, i) => {
        l.block = nextBlock(l);
        // A costly request takes what it lacks at once, above the block if need be (the block itself stays
        // as the budget's traffic made it): units it does not spend stay this process's, as any block's.
        return { key: l.key, windowStart: new Date(l.windowStart), windowEnd: new Date(l.windowEnd), quota: l.quota, block: Math.max(l.block, needs[i] ?? 0) };
      });
      const taken = new Map((await this.store.take(asks)).map((t) => [t.key, t]));
      for (const l of leases) {
        const t = taken.get(l.key);
        const granted = t?.granted ?? 0;
        l.tokens += granted;
        // Nothing granted: the window is used up, whatever count the store answered.
        l.used = Math.max(l.used, t?.used ?? 0, granted === 0 ? l.quota : 0);
      }
    } finally {
      for (const l of leases) l.taking = null;
    }
  }

  /** Drops the leases of windows that ended (once a minute), so memory holds only the budgets in use. */
  private forgetEnded(now: number): void {
    if (now < this.forgetAt) return;
    this.forgetAt = now + FORGET_EVERY_MS;
    for (const [key, l] of this.leases) if (l.windowEnd <= now && l.taking === null) this.leases.delete(key);
  }
}

/** Double the last block (one to start), at most MAX_BLOCK and an eighth of what the window has left, at least one. */
export function nextBlock(l: Pick<Lease, 'block' | 'quota' | 'used'>): number {
  return Math.max(1, Math.min(Math.max(1, l.block * 2), MAX_BLOCK, Math.floor((l.quota - l.used) / SPREAD)));
}

function limitOf(policy: Policy, l: Lease, now: number): Limit {
  return {
    policy,
    // What this process knows: the window's units nobody took yet, and its own unspent ones.
    remaining: Math.max(0, l.quota - l.used + l.tokens),
    resetSeconds: Math.max(1, Math.ceil((l.windowEnd - now) / 1000)),
  };
}
