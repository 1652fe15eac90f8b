// A download URL that works without a key until it expires: what a bridge's
// delivery of a reply carries for each uploaded file (a bridge holds the
// channel's secret, not an API key). The token names the workspace, the
// upload and the expiry, with a MAC under the service's key over all three:
// it cannot be made for another file, extended or moved to another workspace.
// It opens the file only while the file exists: a redaction or an erasure
// ends it at once, whatever its expiry says.
import { timingSafeEqual } from 'node:crypto';
import type { Sealer } from '../../platform/crypto/seal.js';
import { isUuid } from '../../platform/ids.js';

const macOf = (sealer: Sealer, tenantId: string, id: string, expires: number) => sealer.mac('data_key', tenantId, `download|${id}|${expires}`);

export function downloadToken(sealer: Sealer, tenantId: string, id: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${tenantId}.${id}.${expires}.${macOf(sealer, tenantId, id, expires)}`;
}

/** The workspace and upload a token names, if its MAC holds and it has not expired; null otherwise. */
export function readDownloadToken(sealer: Sealer, token: string, now: Date): { tenantId: string; uploadId: string } | null {
  const parts = token.split('.');
  if (parts.length !== 4) return null;
  const [tenantId, id, exp, mac] = parts as [string, string, string, string];
  if (!isUuid(tenantId) || !isUuid(id) || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(mac)) return null;
  const expires = Number(exp);
  const expected = Buffer.from(macOf(sealer, tenantId.toLowerCase(), id.toLowerCase(), expires), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) return null;
  if (expires * 1000 <= now.getTime()) return null;
  return { tenantId: tenantId.toLowerCase(), uploadId: id.toLowerCase() };
}
