// API key format (spec 2.1): `svc_` + workspace id as 32 lowercase hex + `_` +
// 43 base64url characters (32 random bytes). The workspace id inside the key
// lets the service enter the right tenant before any lookup.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../platform/crypto/hmac.js';

export const API_KEY_RE = /^svc_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export function mintApiKey(tenantId: string): { secret: string; hash: string } {
  const secret = `svc_${tenantId.replace(/-/g, '').toLowerCase()}_${randomBytes(32).toString('base64url')}`;
  return { secret, hash: sha256Hex(secret) };
}

/** The tenant a presented key names, or null when the key is malformed. */
export function tenantOfKey(secret: string): string | null {
  const m = API_KEY_RE.exec(secret);
  if (!m) return null;
  const h = m[1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
