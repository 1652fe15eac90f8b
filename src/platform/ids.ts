import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';

export interface Ids {
  uuid(): string;
}

const seeded = new AsyncLocalStorage<{ seed: string; n: number }>();

/**
 * Runs `work` so that the ids `randomIds` mints in it are derived from `seed`,
 * in order (the nth id of a run is the same in every run). The idempotency layer
 * seeds with the request's key: when a write's work committed but its answer was
 * lost (the process died, or a 5xx came after the commit) and a retry runs it
 * again, the route names the same conversation, part or invite as the first run,
 * just as the events it appends already get ids derived from the key.
 */
export function withIdSeed<T>(seed: string, work: () => Promise<T>): Promise<T> {
  return seeded.run({ seed, n: 0 }, work);
}

export const randomIds: Ids = {
  uuid: () => {
    const s = seeded.getStore();
    return s ? deterministicUuid('request-id', s.seed, String(s.n++)) : randomUUID();
  },
};

/** A name-based UUID (v5 layout over SHA-256): the same inputs always give the same id. */
export function deterministicUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_RE.test(s);
