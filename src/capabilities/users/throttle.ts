// Sign-in throttling: token buckets in Postgres, per account and per client
// address, so the limit holds however many API processes share the database.
//
// Every attempt takes a token from both buckets before any password hashing;
// a successful sign-in gives its tokens back. So failures are what cost, and a
// concurrent burst cannot slip past the limit (a "count only failures" check
// would let 200 simultaneous attempts all see a full bucket). When either bucket
// is empty the attempt is refused: 429 `too_many_attempts` with Retry-After, no
// hashing, no user lookup. The buckets are independent: a refused attempt still
// spends a token from the other one if it had any.
//
// The account key is the normalised e-mail whether or not a user has it, so an
// unknown address is throttled exactly like a known one; keys are stored hashed.
// Time comes from the injected clock, so tests move it instead of sleeping.
import type { Knex } from 'knex';
import type { Clock } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto/hmac.js';
import { AppError } from '../../platform/errors.js';
import { normalizeEmail } from './users.repo.js';

export interface BucketSpec {
  capacity: number;
  refillPerSecond: number;
}

/** Per account: a burst of 10, then one attempt every 6 seconds. */
export const ACCOUNT_BUCKET: BucketSpec = { capacity: 10, refillPerSecond: 1 / 6 };
/** Per client address: a burst of 100 (many people behind one NAT), then one a second. */
export const ADDRESS_BUCKET: BucketSpec = { capacity: 100, refillPerSecond: 1 };

/** Buckets untouched this long are full again whatever they held; their rows are reaped. */
const REAP_AFTER_MS = 3600_000;
const REAP_EVERY_MS = 10 * 60_000;

export class TooManyAttempts extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'too_many_attempts', 'Too many sign-in attempts. Wait before trying again.', undefined, [], { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** The hashing lane of an account: one derivation at a time per normalised e-mail. */
export const accountLane = (email: string): string => `account:${sha256Hex(normalizeEmail(email))}`;

/** The client address as Express resolved it (honouring TRUST_PROXY), IPv4-mapped IPv6 unwrapped. */
export function clientAddress(ip: string | undefined): string {
  const a = (ip ?? 'unknown').toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

export interface Pass {
  /** the hashing lane for this attempt */
  lane: string;
  /** gives the tokens back (a successful sign-in costs nothing) */
  refund(): Promise<void>;
}

export class SigninThrottle {
  private lastReap = 0;

  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    private readonly account: BucketSpec = ACCOUNT_BUCKET,
    private readonly address: BucketSpec = ADDRESS_BUCKET,
  ) {}

  /** Takes a token for an attempt on `email` from `ip`, or throws TooManyAttempts. */
  async take(email: string, ip: string | undefined): Promise<Pass> {
    const now = this.clock.now();
    const lane = accountLane(email);
    const buckets = [
      { key: lane, capacity: this.account.capacity, refill: this.account.refillPerSecond },
      { key: `address:${sha256Hex(clientAddress(ip))}`, capacity: this.address.capacity, refill: this.address.refillPerSecond },
    ];
    // One statement, atomic per bucket (the row lock of ON CONFLICT DO UPDATE): refill by the time
    // elapsed since the last take, capped at capacity, then take one token if there is a whole one.
    const avail = 'least(EXCLUDED.capacity, t.tokens + greatest(0, extract(epoch FROM EXCLUDED.updated_at - t.updated_at)) * EXCLUDED.refill_per_second)';
    const res = await this.db.raw(
      `INSERT INTO signin_throttle AS t (key, tokens, capacity, refill_per_second, updated_at, granted)
       SELECT b.key, b.capacity - 1, b.capacity, b.refill, ?::timestamptz, true
         FROM jsonb_to_recordset(?::jsonb) AS b(key text, capacity float8, refill float8)
       ON CONFLICT (key) DO UPDATE SET
         tokens = CASE WHEN ${avail} >= 1 THEN ${avail} - 1 ELSE ${avail} END,
         granted = ${avail} >= 1,
         capacity = EXCLUDED.capacity,
         refill_per_second = EXCLUDED.refill_per_second,
         updated_at = greatest(t.updated_at, EXCLUDED.updated_at)
       RETURNING key, tokens, refill_per_second, granted`,
      [now, JSON.stringify(buckets)],
    );
    this.reapNowAndThen(now);
    const rows = res.rows as { key: string; tokens: number; refill_per_second: number; granted: boolean }[];
    const refused = rows.filter((r) => !r.granted);
    if (refused.length > 0) {
      const wait = Math.max(...refused.map((r) => Math.ceil((1 - r.tokens) / r.refill_per_second - 1e-9)));
      throw new TooManyAttempts(Math.max(1, wait));
    }
    const keys = rows.map((r) => r.key);
    return {
      lane,
      refund: async () => {
        await this.db('signin_throttle').whereIn('key', keys).update({ tokens: this.db.raw('least(capacity, tokens + 1)') });
      },
    };
  }

  /** Full buckets need no row: drop long-untouched ones, at most every few minutes per process. */
  private reapNowAndThen(now: Date): void {
    if (now.getTime() - this.lastReap < REAP_EVERY_MS) return;
    this.lastReap = now.getTime();
    void this.db('signin_throttle')
      .where('updated_at', '<', new Date(now.getTime() - REAP_AFTER_MS))
      .del()
      .catch(() => undefined);
  }
}
