import { randomUUID } from 'node:crypto';
import { sha256 } from './crypto/hmac.js';

export interface Ids {
  uuid(): string;
}

export const randomIds: Ids = { uuid: () => randomUUID() };

/**
 * Ids derived from `seed`, in order: the nth id minted is the same in every run.
 * The idempotency layer hands these to a write with an Idempotency-Key (seeded
 * with the key; see WriteSession in src/api/answer.ts): when its work committed
 * but its answer was lost and a retry runs it again, the route names the same
 * conversation, part or invite as the first run, just as the events it appends
 * get ids derived from the key.
 */
export function seededIds(seed: string): Ids {
  let n = 0;
  return { uuid: () => deterministicUuid('request-id', seed, String(n++)) };
}

/** A name-based UUID (v5 layout over SHA-256): the same inputs always give the same id. */
export function deterministicUuid(...parts: string[]): string {
  const h = sha256(parts.join('\u0000'));
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_RE.test(s);
