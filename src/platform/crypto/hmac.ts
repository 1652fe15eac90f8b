import * as crypto from 'node:crypto';

const { createHash, createHmac, timingSafeEqual } = crypto;

export const hmacHex = (secret: string, body: Buffer | string): string => createHmac('sha256', secret).update(body).digest('hex');

/** `crypto.hash` (Node 20.12 and later): a digest in one call, without a Hash object to make and collect. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer | string, encoding: 'hex' | 'buffer') => string | Buffer }).hash;

/** SHA-256 of `data` (a string as UTF-8), as hex. Called several times a write (ids, the chain): one call each. */
export const sha256Hex: (data: Buffer | string) => string = oneShot
  ? (data) => oneShot('sha256', data, 'hex') as string
  : (data) => createHash('sha256').update(data).digest('hex');

/** SHA-256 of `data` (a string as UTF-8), as bytes. */
export const sha256: (data: Buffer | string) => Buffer = oneShot
  ? (data) => oneShot('sha256', data, 'buffer') as Buffer
  : (data) => createHash('sha256').update(data).digest();

/** Constant-time comparison of two hex digests; unequal lengths fail without comparing. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
