// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"):
// a browser that signed in successfully gets `svc_device`, and its later sign-in
// attempts for that user are throttled on their own (users/throttle.ts) instead
// of by the account's lockout and the shared client address, which anyone who
// knows the e-mail can drain.
//
// The value is `v1.<issued at, unix seconds>.<nonce>.<mac>`: 16 random bytes and
// HMAC-SHA-256 over the version, the time, the nonce and the normalised e-mail,
// under a key derived (HKDF) from the service's secrets key. The e-mail is not in
// the cookie: a cookie is valid only for the e-mail it was issued for, checked
// against the e-mail the attempt signs in as, so it reveals nothing about the user
// and needs no lookup (a known and an unknown e-mail take the same path). It is
// valid for DEVICE_TTL_MS after issue; every successful sign-in issues a new one,
// and the one it replaces is retired (throttle.retire). Revoking a user's devices
// (DELETE /api/me/devices, DELETE /api/members/{id}/devices) voids every cookie
// issued at or before that moment: the throttle compares the issue time the
// cookie carries with users.devices_revoked_at.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import { secretsKey } from '../../platform/secrets-key.js';
import { normalizeEmail } from '../users/index.js';

export const DEVICE_COOKIE = 'svc_device';
/** Long-lived: a year (browsers cap cookie lifetimes at 400 days). */
export const DEVICE_TTL_MS = 365 * 24 * 3600_000;

const VERSION = 'v1';
const FORMAT = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export interface DeviceCookie {
  /** what the cookie is known by: its bucket and its retirement are keyed by this (hashed) */
  id: string;
  /** when it was issued, to the second (a revocation of the user's devices voids cookies issued at or before it) */
  issuedAt: Date;
  expiresAt: Date;
}

export class DeviceCookies {
  private key: Promise<Buffer> | null = null;

  /** `secret`: the service's secrets key (SERVICE_SECRETS_KEY, or the one generated in DATA_DIR). */
  constructor(private readonly secret: () => Promise<string>) {}

  static fromConfig(config: Pick<Config, 'secretsKey' | 'dataDir'>): DeviceCookies {
    return new DeviceCookies(() => secretsKey(config.secretsKey, config.dataDir));
  }

  private deviceKey(): Promise<Buffer> {
    if (!this.key) {
      const key = this.secret().then((s) =>
        Buffer.from(hkdfSync('sha256', Buffer.from(s, 'utf8'), Buffer.alloc(0), `conversation-service/device-cookie/${VERSION}`, 32)),
      );
      // a failure to read the key is not remembered: the next attempt reads it again
      key.catch(() => (this.key = null));
      this.key = key;
    }
    return this.key;
  }

  private async mac(issuedAt: string, nonce: string, email: string): Promise<Buffer> {
    return createHmac('sha256', await this.deviceKey())
      .update(`${VERSION}|${issuedAt}|${nonce}|${normalizeEmail(email)}`)
      .digest();
  }

  /** A new device cookie's value for `email`, issued at `now`. */
  async issue(email: string, now: Date): Promise<string> {
    const issuedAt = String(Math.floor(now.getTime() / 1000));
    const nonce = randomBytes(16).toString('base64url');
    return `${VERSION}.${issuedAt}.${nonce}.${(await this.mac(issuedAt, nonce, email)).toString('base64url')}`;
  }

  /** The device cookie `value` when it is one this service issued for `email` and has not expired; else null. */
  async verify(value: string | null, email: string, now: Date): Promise<DeviceCookie | null> {
    const m = value ? FORMAT.exec(value) : null;
    if (!m) return null;
    const [, issuedAt, nonce, mac] = m as unknown as [string, string, string, string];
    const expected = await this.mac(issuedAt, nonce, email);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    // Only the form issued: a decoder ignores the last character's two unused bits, so four texts decode to one MAC.
    if (given.toString('base64url') !== mac) return null;
    const issued = Number(issuedAt) * 1000;
    // not yet issued (more than a minute of clock skew between processes) or expired: not a device
    if (issued > now.getTime() + 60_000 || issued + DEVICE_TTL_MS <= now.getTime()) return null;
    return { id: `${issuedAt}.${nonce}`, issuedAt: new Date(issued), expiresAt: new Date(issued + DEVICE_TTL_MS) };
  }
}

/** 127.0.0.0/8 and ::1 (also IPv4-mapped). */
export function isLoopback(address: string | undefined): boolean {
  const a = (address ?? '').toLowerCase();
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Whether the device cookie is `Secure`: always, unless the request came over plain HTTP (`secure`: Express's
 * req.secure, which believes X-Forwarded-Proto only from TRUST_PROXY) to a loopback address (`localAddress`).
 */
export function secureUnlessPlainLoopback(secure: boolean, localAddress: string | undefined): boolean {
  return secure || !isLoopback(localAddress);
}

/**
 * The `Set-Cookie` value: HttpOnly, SameSite=Lax, long-lived, sent only to the sign-in route; `secure` from
 * secureUnlessPlainLoopback (plain HTTP to loopback is a developer's machine; behind a proxy on the same host set
 * TRUST_PROXY so `X-Forwarded-Proto: https` counts).
 */
export function deviceCookieHeader(value: string, path: string, secure: boolean): string {
  return [`${DEVICE_COOKIE}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Lax', `Max-Age=${DEVICE_TTL_MS / 1000}`, ...(secure ? ['Secure'] : [])].join('; ');
}
