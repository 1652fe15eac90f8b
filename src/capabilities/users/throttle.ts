// Sign-in throttling: token buckets in Postgres, per account and per client
// address, or per device cookie, so the limit holds however many API processes
// share the database.
//
// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device
// Cookies"; the cookie itself is access/device-cookies.ts): an attempt carrying a
// valid device cookie for the e-mail it signs in as takes from that device's
// bucket only. The account and address buckets, which anyone who knows the
// e-mail can drain, do not apply to it, and it hashes in a lane of its own, so a
// burst against the account neither locks out nor holds up the user's own
// browser. A device that fails too often is refused on its own (429). Every
// other attempt (no device cookie, a forged or expired one, one for another
// e-mail, one already replaced, one issued at or before the user's devices were
// revoked: users.devices_revoked_at) is untrusted and takes from the account
// and address buckets as before.
//
// Every attempt takes a token from its buckets before any password hashing;
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

/** Per device cookie: a burst of 10, then one attempt a minute; the device is then refused on its own. */
export const DEVICE_BUCKET: BucketSpec = { capacity: 10, refillPerSecond: 1 / 60 };

/** Buckets untouched this long are full again whatever they held; their rows are reaped. */
const REAP_AFTER_MS = 3600_000;
const REAP_EVERY_MS = 10 * 60_000;

export class TooManyAttempts extends AppError {
  constructor(
    retryAfterSeconds: number,
    /** the buckets that were empty (what an operator sees of the refusal: access/throttle-watch.ts) */
    readonly refusedBy: readonly BucketKind[] = [],
  ) {
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

/** The seconds until each refused bucket has a whole token again (at least 1). */
const waitFor = (refused: { tokens: number; refill_per_second: number }[]): number =>
  Math.max(1, ...refused.map((r) => Math.ceil((1 - r.tokens) / r.refill_per_second - 1e-9)));

/** The bucket (and hashing lane) of a device cookie, by its id (stored hashed like every key). */
const deviceKey = (deviceId: string): string => `device:${sha256Hex(deviceId)}`;
/** Marks a device cookie replaced by a newer one: its row lives until the cookie would have expired. */
const retiredKey = (deviceId: string): string => `device-retired:${sha256Hex(deviceId)}`;

/** Which bucket refused an attempt: the account's, the client address's, or the device cookie's. */
export type BucketKind = 'account' | 'address' | 'device';
const kindOf = (key: string): BucketKind => (key.startsWith('device:') ? 'device' : key.startsWith('address:') ? 'address' : 'account');

/** A device cookie the caller verified for the e-mail it signs in as (access/device-cookies.ts). */
export interface PresentedDevice {
  id: string;
  /** when it was issued (to the second): a revocation of the user's devices at or after this voids it */
  issuedAt: Date;
}

export interface Pass {
  /** the hashing lane for this attempt */
  lane: string;
  /** the attempt was counted against the device cookie's own bucket (a trusted device) */
  device: boolean;
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
    private readonly device: BucketSpec = DEVICE_BUCKET,
  ) {}

  /**
   * Takes a token for an attempt on `email` from `ip`, or throws TooManyAttempts. `presented`: a device
   * cookie the caller verified for this e-mail; unless it was replaced (retired) or the user's devices were
   * revoked since it was issued, the attempt takes from that device's bucket only.
   */
  async take(email: string, ip: string | undefined, presented?: PresentedDevice): Promise<Pass> {
    const now = this.clock.now();
    const device = presented !== undefined && (await this.trusted(email, presented)) ? presented : null;
    const lane = device ? deviceKey(device.id) : accountLane(email);
    const buckets = device
      ? [{ key: lane, capacity: this.device.capacity, refill: this.device.refillPerSecond }]
      : [
          { key: lane, capacity: this.account.capacity, refill: this.account.refillPerSecond },
          { key: `address:${sha256Hex(clientAddress(ip))}`, capacity: this.address.capacity, refill: this.address.refillPerSecond },
        ];
    const rows = await this.draw(buckets, now);
    const refused = rows.filter((r) => !r.granted);
    if (refused.length > 0) {
      throw new TooManyAttempts(
        waitFor(refused),
        refused.map((r) => kindOf(r.key)),
      );
    }
    const keys = rows.map((r) => r.key);
    return {
      lane,
      device: device !== null,
      refund: async () => {
        await this.db('signin_throttle')
          .whereIn('key', keys)
          .update({ tokens: this.db.raw('least(capacity, tokens + 1)') });
      },
    };
  }

  /**
   * One token from a bucket of another kind than sign-ins (`kind`: invites per inviter), keyed by the subject,
   * stored hashed like every key: null when taken, else the seconds to wait. The same table and the same statement
   * as sign-in attempts, so the limit holds however many processes share the database.
   */
  async takeToken(kind: string, subject: string, spec: BucketSpec): Promise<number | null> {
    const rows = await this.draw([{ key: `${kind}:${sha256Hex(subject)}`, capacity: spec.capacity, refill: spec.refillPerSecond }], this.clock.now());
    const refused = rows.filter((r) => !r.granted);
    return refused.length ? waitFor(refused) : null;
  }

  /**
   * Takes a token from each bucket in one statement, atomic per bucket (the row lock of ON CONFLICT DO UPDATE): refill
   * by the time elapsed since the last take, capped at capacity, then take one token if there is a whole one.
   */
  private async draw(
    buckets: { key: string; capacity: number; refill: number }[],
    now: Date,
  ): Promise<{ key: string; tokens: number; refill_per_second: number; granted: boolean }[]> {
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
    return res.rows as { key: string; tokens: number; refill_per_second: number; granted: boolean }[];
  }

  /**
   * Whether a verified device cookie still counts as a device: not replaced by a newer one (retired), and not
   * issued at or before the user's last revocation of their devices (users.devices_revoked_at). One round
   * trip, the same for a known and an unknown e-mail.
   */
  private async trusted(email: string, device: PresentedDevice): Promise<boolean> {
    const res = await this.db.raw(
      `SELECT EXISTS (SELECT 1 FROM signin_throttle WHERE key = ?)
           OR EXISTS (SELECT 1 FROM users WHERE lower(email) = ? AND devices_revoked_at >= ?::timestamptz) AS untrusted`,
      [retiredKey(device.id), normalizeEmail(email), device.issuedAt],
    );
    return (res.rows as { untrusted: boolean }[])[0]?.untrusted === false;
  }

  /**
   * A device cookie replaced by a newer one (rotation) is no longer a trusted device: its attempts are
   * untrusted from now on. The mark is a row kept until `until` (the cookie's own expiry) plus the reaping
   * delay; it is never a bucket (nothing takes from it).
   */
  async retire(deviceId: string, until: Date): Promise<void> {
    await this.db('signin_throttle')
      .insert({ key: retiredKey(deviceId), tokens: 0, capacity: 0, refill_per_second: 0, updated_at: until, granted: false })
      .onConflict('key')
      .ignore();
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
