// The service's Ed25519 key for audit checkpoints (docs/audit.md). Its public
// half is published as a JWK (RFC 8037) named by its RFC 7638 thumbprint (kid),
// so a checkpoint verifies with nothing but that key.
//
// The key is SERVICE_AUDIT_SIGNING_KEY (a PKCS#8 PEM, or a base64url 32-byte
// seed) or, for the embedded default, generated once in DATA_DIR like
// secrets.key. Rotating is configuring another key: checkpoints name their kid,
// and the public keys that signed stay listed beside the log.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';

/** An Ed25519 public key as a JWK (RFC 8037), with its kid. */
export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface Signer {
  readonly kid: string;
  readonly publicJwk: PublicJwk;
  /** base64url Ed25519 signature over the message's UTF-8 bytes */
  sign(message: string): string;
}

/** The file the embedded default keeps its generated key in (PKCS#8 PEM, mode 0600). */
export const SIGNING_KEY_FILE = 'audit-signing.key';

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A configured key: a PKCS#8 PEM, or a base64url (or base64) 32-byte seed. Throws with a reason otherwise. */
export function parseSigningKey(text: string): KeyObject {
  const trimmed = text.trim();
  let key: KeyObject;
  if (trimmed.includes('-----BEGIN')) {
    key = createPrivateKey(trimmed.replace(/\\n/g, '\n'));
  } else {
    const seed = Buffer.from(trimmed, 'base64url');
    if (seed.length !== 32 || !/^[A-Za-z0-9_\-+/]{43}=?$/.test(trimmed)) throw new Error('not a PKCS#8 PEM nor a base64url 32-byte Ed25519 seed');
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  return key;
}

/** The RFC 7638 thumbprint of an Ed25519 public key: base64url SHA-256 of {"crv","kty","x"} in that order. */
export function jwkThumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

/**
 * Whether `text` is the one base64url form (RFC 4648 §5, no padding) of `bytes` bytes. Node's decoder is
 * lenient (it skips `=`, `.` and spaces, and ignores the unused low bits of the last character), so several
 * strings decode to the same bytes; only the one that encodes back to itself is accepted, so a changed
 * character of a signature or key is never read as the same value.
 */
export function isCanonicalBase64url(text: unknown, bytes: number): text is string {
  if (typeof text !== 'string' || text.length !== Math.ceil((bytes * 4) / 3) || !/^[A-Za-z0-9_-]+$/.test(text)) return false;
  const decoded = Buffer.from(text, 'base64url');
  return decoded.length === bytes && decoded.toString('base64url') === text;
}

/** What is wrong with a public key record (kty, crv, a canonical 32-byte x, kid its RFC 7638 thumbprint), or null. */
export function publicKeyProblem(jwk: { kty?: unknown; crv?: unknown; x?: unknown; kid?: unknown }): string | null {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return 'not an Ed25519 key (kty OKP, crv Ed25519)';
  if (!isCanonicalBase64url(jwk.x, 32)) return 'its x is not 32 bytes in canonical unpadded base64url';
  const thumbprint = jwkThumbprint(jwk.x);
  if (jwk.kid !== thumbprint) return `its kid ${String(jwk.kid)} is not its RFC 7638 thumbprint ${thumbprint}`;
  return null;
}

/**
 * Public keys given as JSON: a JWK Set (what GET /api/audit/keys answers), an array of JWKs, or one JWK; by kid.
 * Throws naming the first key that is not an Ed25519 key named by its thumbprint.
 */
export function parsePublicKeys(text: string): Map<string, string> {
  const json = JSON.parse(text) as unknown;
  const list = Array.isArray(json) ? json : json && typeof json === 'object' && 'keys' in json ? (json as { keys: unknown }).keys : [json];
  if (!Array.isArray(list)) throw new Error('not a JWK Set, an array of JWKs nor a JWK');
  const out = new Map<string, string>();
  for (const k of list as Record<string, unknown>[]) {
    const problem = k && typeof k === 'object' ? publicKeyProblem(k) : 'not a JWK';
    if (problem) throw new Error(`key ${String(k?.kid)}: ${problem}`);
    out.set(k.kid as string, k.x as string);
  }
  return out;
}

/** Whether `signature` (canonical unpadded base64url, 64 bytes) is the Ed25519 signature of `message` by the key `x`. */
export function signatureHolds(x: string, message: string, signature: unknown): boolean {
  if (!isCanonicalBase64url(signature, 64) || !isCanonicalBase64url(x, 32)) return false;
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

export function signerOf(privateKey: KeyObject): Signer {
  const x = (createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }).x;
  const kid = jwkThumbprint(x);
  return {
    kid,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' },
    sign: (message) => sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64url'),
  };
}

/** The configured key, else the one generated once in DATA_DIR. */
export async function loadSigner(configured: string | null, dataDir: string): Promise<Signer> {
  if (configured) return signerOf(parseSigningKey(configured));
  const file = path.join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file)) {
    await fs.mkdir(dataDir, { recursive: true });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    await fs.writeFile(file, pem, { mode: 0o600, flag: 'wx' }).catch((e) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    });
  }
  return signerOf(parseSigningKey(await fs.readFile(file, 'utf8')));
}
