import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { PendingEvent, StoredEvent } from '../../src/eventstore/envelope.js';
import type { EventStore } from '../../src/eventstore/store.port.js';

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

export async function eventually<T>(fn: () => Promise<T> | T, check: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
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

/**
 * readAll from `cp` in pages of `pageSize` until `done` holds for what was read (bounded in time). The Postgres
 * store's global order shows an event once no older transaction of the cluster is still open (tx_id below the
 * snapshot's xmin, see postgres.store.ts): with other test files writing to other databases of the same cluster,
 * a commit here can take a moment to become readable, so an empty page means "not yet", not "the end".
 */
export async function readAllUntil(
  store: EventStore,
  cp: string | null,
  pageSize: number,
  done: (seen: StoredEvent[]) => boolean,
  timeoutMs = 20_000,
): Promise<{ seen: StoredEvent[]; checkpoint: string | null }> {
  const seen: StoredEvent[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await store.readAll(cp, pageSize);
    expect(page.events.length).to.be.at.most(pageSize);
    seen.push(...page.events);
    if (page.events.length) cp = page.checkpoint;
    else if (done(seen) || Date.now() > deadline) return { seen, checkpoint: cp };
    else await new Promise((r) => setTimeout(r, 25));
  }
}
