// What operators and a workspace's owners see of a throttled sign-in burst (issue 30: "a throttled burst against an
// account is recorded with the addresses involved"). A burst is the refusals of one account's attempts (by the
// normalised e-mail) with no pause of BURST_QUIET_MS between them, cut every BURST_MAX_MS so a long attack is
// told as it goes; per process, so behind three processes a burst may be told up to three times. Not per attempt: a 200-attempt burst is
//   - one warning log line when it starts, and one when it ends (its count, its addresses, how long);
//   - the counters service_signin_throttled_total{bucket} (every refusal) and
//     service_signin_throttle_bursts_total (each burst), through the SigninObserver;
//   - a `session.throttled` entry in the audit log of every workspace the account's user is an active member
//     of, once per address the burst came from (at most MAX_ADDRESSES), the address sealed.
// The log lines name the user's id, never the e-mail; an e-mail that is no user's is logged by a hash of it.
// The audit entries are written after the 429 is sent (the answer must not take longer for a known e-mail).
import type { RequestClient } from '../../commands/command.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { Db } from '../../platform/db/database.js';
import type { SigninObserver } from '../capability.js';
import type { AuditTrail } from '../audit-log/index.js';
import { activeMembershipsOfUser } from '../members/index.js';
import { findUserByEmail, normalizeEmail, type BucketKind } from '../users/index.js';

/** A burst ends after this long without a refusal of the account. */
export const BURST_QUIET_MS = 60_000;
/** A burst that goes on is summed up and started again this often (so a long attack is told as it goes). */
export const BURST_MAX_MS = 15 * 60_000;
/** Addresses a burst's audit entries and summary name; beyond, they are counted. */
export const MAX_ADDRESSES = 20;
const SWEEP_EVERY_MS = 10_000;

interface Burst {
  account: string;
  email: string;
  startedAt: Date;
  lastAt: Date;
  refused: number;
  buckets: Set<BucketKind>;
  addresses: Set<string>;
  moreAddresses: number;
  userId: Promise<string | null>;
}

export class ThrottleWatch {
  private readonly bursts = new Map<string, Burst>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger; trail: AuditTrail; observer?: SigninObserver },
    private readonly onError: (e: unknown) => void = (e) => deps.log.warn({ err: e }, 'recording a throttled sign-in failed'),
  ) {}

  /** An attempt on `email` from `client` was refused by `buckets`. Returns at once; the audit entries follow. */
  refused(email: string, client: RequestClient, buckets: readonly BucketKind[], requestId: string): void {
    const now = this.deps.clock.now();
    this.endQuiet(now);
    const account = sha256Hex(normalizeEmail(email));
    let burst = this.bursts.get(account);
    const started = !burst;
    if (!burst) {
      burst = {
        account,
        email: normalizeEmail(email),
        startedAt: now,
        lastAt: now,
        refused: 0,
        buckets: new Set(),
        addresses: new Set(),
        moreAddresses: 0,
        userId: findUserByEmail(this.deps.db, email).then(
          (u) => u?.id ?? null,
          () => null,
        ),
      };
      this.bursts.set(account, burst);
      this.keepSweeping();
    }
    burst.lastAt = now;
    burst.refused++;
    for (const b of buckets) burst.buckets.add(b);
    this.deps.observer?.throttled(buckets, started);
    const ip = client.ip ?? 'unknown';
    const newAddress = !burst.addresses.has(ip);
    if (newAddress && burst.addresses.size >= MAX_ADDRESSES) burst.moreAddresses++;
    else if (newAddress) burst.addresses.add(ip);
    const b = burst;
    void b.userId
      .then(async (userId) => {
        if (started) this.deps.log.warn({ ...this.who(b, userId), buckets, addresses: [ip] }, 'sign-in throttled: a burst started');
        if (newAddress && b.addresses.has(ip) && userId) await this.record(userId, client, requestId);
      })
      .catch(this.onError);
  }

  /** The `session.throttled` entries of one address, in each of the user's workspaces. */
  private async record(userId: string, client: RequestClient, requestId: string): Promise<void> {
    const memberships = await activeMembershipsOfUser(this.deps.db, userId);
    await this.deps.trail.record(
      memberships.map((m) => ({
        tenantId: m.tenant_id,
        action: 'session.throttled' as const,
        aggregate: { type: 'member', id: m.id },
        actor: { type: 'system' as const, id: 'sign_in_throttle' },
        // the address is the caller's, who claimed to be this member: sealed with the member's key
        subject: { kind: 'member' as const, id: m.id },
        client,
        requestId,
      })),
    );
  }

  private who(b: Burst, userId: string | null) {
    return userId ? { user_id: userId } : { user_id: null, account: b.account.slice(0, 16) };
  }

  /** Ends the bursts that have been quiet long enough: one summary line each. */
  private endQuiet(now: Date): void {
    for (const [account, b] of this.bursts) {
      if (now.getTime() - b.lastAt.getTime() < BURST_QUIET_MS && now.getTime() - b.startedAt.getTime() < BURST_MAX_MS) continue;
      this.bursts.delete(account);
      void b.userId
        .then((userId) =>
          this.deps.log.warn(
            {
              ...this.who(b, userId),
              refused: b.refused,
              buckets: [...b.buckets],
              addresses: [...b.addresses],
              more_addresses: b.moreAddresses,
              started_at: b.startedAt.toISOString(),
              last_at: b.lastAt.toISOString(),
            },
            'sign-in throttled: a burst ended',
          ),
        )
        .catch(this.onError);
    }
    if (this.bursts.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** While a burst is open, a timer ends it once quiet (no further refusal may come to do it). */
  private keepSweeping(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.endQuiet(this.deps.clock.now()), SWEEP_EVERY_MS);
    this.timer.unref();
  }
}
