// readAll orders by the numeric (tx_id, position) it pages on. Regression: the
// query selected `tx_id::text AS tx_id, position::text AS position` and said
// `ORDER BY tx_id, position`, which Postgres resolves to the *text* output
// columns ("10" < "9"): events of one append came back out of seq order, and
// a page could end past events it had not returned, so the next page skipped them.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { eventually, pending, readAllUntil } from '../support/events.js';

describe('Postgres event store: readAll order', function () {
  let t: TestDb;
  let store: PostgresEventStore;
  const big = randomUUID();
  const small = [randomUUID(), randomUUID(), randomUUID()];
  let total = 0;

  before(async () => {
    t = await createTestDb('es_read_order', { max: 5 });
    store = new PostgresEventStore(t.db, null);
    // One append of 25 events (positions 1..25 in one transaction), then 120 single-event
    // transactions (positions crossing 100).
    await store.append(big, pending(25), 0);
    for (let i = 0; i < 120; i++) await store.append(small[i % 3]!, pending(1), Math.floor(i / 3));
    total = 25 + 120;
  });
  after(async () => t?.drop());

  const expectInOrder = (events: StoredEvent[]) => {
    expect(events).to.have.length(total);
    expect(new Set(events.map((e) => e.id)).size).to.equal(total);
    expect(events.filter((e) => e.tenant_id === big).map((e) => e.seq)).to.deep.equal(Array.from({ length: 25 }, (_, i) => i + 1));
    for (const s of small) expect(events.filter((e) => e.tenant_id === s).map((e) => e.seq)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    const numeric = events.map((e) => e.position.split(':').map(BigInt) as [bigint, bigint]);
    numeric.slice(1).forEach(([tx, pos], i) => {
      const [ptx, ppos] = numeric[i]!;
      expect(tx > ptx || (tx === ptx && pos > ppos), `position ${events[i + 1]!.position} after ${events[i]!.position}`).to.equal(true);
    });
  };

  for (const pageSize of [1000, 7, 4]) {
    it(`returns every event once, in (tx_id, position) order, in pages of ${pageSize}`, async () => {
      const { seen } = await readAllUntil(store, null, pageSize, (all) => all.length >= total);
      expectInOrder(seen);
    });
  }

  it('feeds a subscriber every event once, in order', async () => {
    const seen: StoredEvent[] = [];
    const sub = store.subscribe({ after: null, batchSize: 6, handle: async (evs) => void seen.push(...evs) });
    try {
      await eventually(
        () => seen.length,
        (n) => n >= total,
      );
    } finally {
      await sub.stop();
    }
    expectInOrder(seen);
  });
});
