// Secrets we must be able to read back (webhook endpoint secrets, channel
// secrets) are sealed with AES-256-GCM. The tenant id and the entity id are the
// associated data, so a sealed value copied to another row, entity or
// workspace fails authentication instead of opening there.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';
import { randomBytesPooled } from './random.js';

export type SealPurpose = 'channel' | 'webhook' | 'idempotency' | 'data_key';

export class SealError extends Error {}

export interface Sealer {
  /** false when no key is configured for this purpose (channels need SERVICE_CHANNELS_SECRET) */
  canSeal(purpose: SealPurpose): boolean;
  seal(purpose: SealPurpose, tenantId: string, entityId: string, plaintext: string): string;
  open(purpose: SealPurpose, tenantId: string, entityId: string, sealed: string): string;
  /**
   * A keyed hash (hex HMAC-SHA256) of `text`, bound to the workspace, under a key of its own derived from the
   * purpose's secret: what may be kept of a value that must be recognised again but not read (an erased thread's id).
   */
  mac(purpose: SealPurpose, tenantId: string, text: string): string;
}

const VERSION = 'v1';

function deriveKey(secret: string, purpose: SealPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `conversation-service/${purpose}/${VERSION}`, 32));
}

/** AES-256-GCM of `plaintext` under `key`, bound to `aad`: `v1.<iv>.<ciphertext>.<tag>` (base64url). */
export function sealWith(key: Buffer, aad: string, plaintext: string): string {
  const iv = randomBytesPooled(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Opens what `sealWith` sealed with the same key and associated data; throws SealError otherwise. */
export function openWith(key: Buffer, aad: string, sealed: string): string {
  const [v, iv, body, tag] = sealed.split('.');
  if (v !== VERSION || !iv || !body || !tag) throw new SealError('sealed value has an unknown format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError('sealed value does not open for this tenant and entity');
  }
}

/** Bytes sealed by `sealBytesWith`: a version byte, the IV, the tag, then the ciphertext (no base64: files are large). */
const BYTES_VERSION = 1;

/** AES-256-GCM of `plaintext` bytes under `key`, bound to `aad`, as bytes. */
export function sealBytesWith(key: Buffer, aad: string, plaintext: Buffer): Buffer {
  const iv = randomBytesPooled(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.of(BYTES_VERSION), iv, cipher.getAuthTag(), body]);
}

/** Opens what `sealBytesWith` sealed with the same key and associated data; throws SealError otherwise. */
export function openBytesWith(key: Buffer, aad: string, sealed: Buffer): Buffer {
  if (sealed.length < 29 || sealed[0] !== BYTES_VERSION) throw new SealError('sealed bytes have an unknown format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.subarray(13, 29));
    return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]);
  } catch {
    throw new SealError('sealed bytes do not open for this tenant and entity');
  }
}

export function createSealer(keys: Partial<Record<SealPurpose, string>>): Sealer {
  const derived = new Map<SealPurpose, Buffer>();
  const macKeys = new Map<SealPurpose, Buffer>();
  for (const [purpose, secret] of Object.entries(keys) as [SealPurpose, string | undefined][]) {
    if (secret) {
      derived.set(purpose, deriveKey(secret, purpose));
      macKeys.set(purpose, Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `conversation-service/${purpose}/mac/${VERSION}`, 32)));
    }
  }
  const keyFor = (purpose: SealPurpose): Buffer => {
    const k = derived.get(purpose);
    if (!k) throw new SealError(`no sealing key configured for ${purpose} secrets`);
    return k;
  };
  const aad = (tenantId: string, entityId: string, purpose: SealPurpose) => `${VERSION}|${purpose}|${tenantId}|${entityId}`;
  return {
    canSeal: (purpose) => derived.has(purpose),
    seal: (purpose, tenantId, entityId, plaintext) => sealWith(keyFor(purpose), aad(tenantId, entityId, purpose), plaintext),
    open: (purpose, tenantId, entityId, sealed) => openWith(keyFor(purpose), aad(tenantId, entityId, purpose), sealed),
    mac: (purpose, tenantId, text) => {
      const key = macKeys.get(purpose);
      if (!key) throw new SealError(`no sealing key configured for ${purpose} secrets`);
      return createHmac('sha256', key).update(`${VERSION}|${tenantId}|${text}`).digest('hex');
    },
  };
}
