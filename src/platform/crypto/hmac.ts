import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const hmacHex = (secret: string, body: Buffer | string): string => createHmac('sha256', secret).update(body).digest('hex');
export const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** Constant-time comparison of two hex digests; unequal lengths fail without comparing. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
