import { randomUUID } from 'node:crypto';
import type { PendingEvent } from '../../src/eventstore/envelope.js';

export function pending(n: number, opts: { type?: string; aggregateId?: string; at?: string } = {}): PendingEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    type: opts.type ?? 'test.happened',
    aggregate_type: 'test',
    aggregate_id: opts.aggregateId ?? 'agg-1',
    payload: { i, note: `event ${i}` },
    metadata: { actor: { type: 'system', id: 'test' } },
    created_at: opts.at ?? new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  }));
}

/** The event of an enabled webhook endpoint at 127.0.0.1:9 subscribed to test.happened (what dispatcher tests route to). */
export function endpointCreated(endpointId: string, at: string): PendingEvent {
  return {
    id: randomUUID(),
    type: 'webhook_endpoint.created',
    aggregate_type: 'webhook_endpoint',
    aggregate_id: endpointId,
    payload: { endpoint_id: endpointId, url: 'http://127.0.0.1:9/hook', event_names: ['test.happened'], description: '', enabled: true },
    metadata: {},
    created_at: at,
  };
}

export async function eventually<T>(fn: () => Promise<T> | T, check: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!check(last)) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(last)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await fn();
  }
  return last;
}

/**
 * `fn` over every item, at most `width` at a time, results in the items' order: the setup of a test that needs
 * hundreds of requests sends them as several clients would, not one by one.
 */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}
