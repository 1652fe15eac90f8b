// The contract every EventStore adapter passes (Postgres always; EventStoreDB when EVENTSTORE_URL is set).
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore } from '../../src/eventstore/store.port.js';
import { eventually, pending } from '../support/events.js';

export interface StoreUnderTest {
  store: EventStore;
  cleanup(): Promise<void>;
}

async function appendConcurrently(store: EventStore, tenants: string[], writers: number, perWriter: number): Promise<void> {
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const tenant = tenants[w % tenants.length]!;
      for (let i = 0; i < perWriter; i++) await store.append(tenant, pending(1 + (i % 3)), 'any');
    }),
  );
}

async function allOf(store: EventStore, tenant: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const page = await store.readTenant(tenant, out.length ? out[out.length - 1]!.seq : 0, 100);
    if (page.length === 0) return out;
    out.push(...page);
  }
}

function expectGapless(events: StoredEvent[]): void {
  expect(events.map((e) => e.seq)).to.deep.equal(events.map((_, i) => i + 1));
  expect(new Set(events.map((e) => e.id)).size).to.equal(events.length);
}

export function runEventStoreContract(label: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`${label} event store contract`, function () {
    let sut: StoreUnderTest;
    let store: EventStore;
    before(async () => {
      sut = await makeStore();
      store = sut.store;
    });
    after(async () => sut.cleanup());

    it('appends to a new tenant from seq 1 and returns the spec 2.4 envelope fields', async () => {
      const tenant = randomUUID();
      const input = pending(3, { aggregateId: 'conv-9' });
      const stored = await store.append(tenant, input, 0);
      expect(stored.map((e) => e.seq)).to.deep.equal([1, 2, 3]);
      const [first] = await store.readTenant(tenant, 0, 1);
      expect(first).to.include({ tenant_id: tenant, seq: 1, type: 'test.happened', aggregate_type: 'test', aggregate_id: 'conv-9', created_at: input[0]!.created_at });
      expect(first!.payload).to.deep.equal({ i: 0, note: 'event 0' });
      expect(await store.head(tenant)).to.equal(3);
    });

    it('refuses an append with a stale expected seq and writes nothing', async () => {
      const tenant = randomUUID();
      await store.append(tenant, pending(2), 0);
      let err: unknown;
      try {
        await store.append(tenant, pending(1), 1);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(WrongExpectedSeq);
      expect((err as WrongExpectedSeq).actual).to.equal(2);
      expect(await store.head(tenant)).to.equal(2);
      const ok = await store.append(tenant, pending(1), 2);
      expect(ok[0]!.seq).to.equal(3);
    });

    it('treats re-appending the same event ids as already done', async () => {
      const tenant = randomUUID();
      const batch = pending(2);
      const a = await store.append(tenant, batch, 0);
      const b = await store.append(tenant, batch, 0);
      expect(b.map((e) => [e.seq, e.id])).to.deep.equal(a.map((e) => [e.seq, e.id]));
      expect(await store.head(tenant)).to.equal(2);
    });

    it('gives 16 concurrent appenders on one tenant seqs exactly 1..N', async () => {
      const tenant = randomUUID();
      await appendConcurrently(store, [tenant], 16, 10);
      const events = await allOf(store, tenant);
      expect(events.length).to.equal(16 * (1 + 2 + 3 + 1 + 2 + 3 + 1 + 2 + 3 + 1));
      expectGapless(events);
    });

    it('gives 16 concurrent appenders over 4 tenants gapless seqs per tenant', async () => {
      const tenants = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await appendConcurrently(store, tenants, 16, 8);
      for (const t of tenants) expectGapless(await allOf(store, t));
    });

    it('reads all tenants from the start and resumes from a checkpoint', async () => {
      const t1 = randomUUID();
      const t2 = randomUUID();
      await store.append(t1, pending(2), 'any');
      await store.append(t2, pending(3), 'any');
      const seen: StoredEvent[] = [];
      let cp: string | null = null;
      for (let i = 0; i < 10_000; i++) {
        const page = await store.readAll(cp, 7);
        if (page.events.length === 0) break;
        seen.push(...page.events);
        cp = page.checkpoint;
      }
      const mine = seen.filter((e) => e.tenant_id === t1 || e.tenant_id === t2);
      expect(mine.filter((e) => e.tenant_id === t1).map((e) => e.seq)).to.deep.equal([1, 2]);
      expect(mine.filter((e) => e.tenant_id === t2).map((e) => e.seq)).to.deep.equal([1, 2, 3]);
      await store.append(t1, pending(1), 'any');
      const more = await store.readAll(cp, 100);
      expect(more.events.filter((e) => e.tenant_id === t1).map((e) => e.seq)).to.deep.equal([3]);
    });

    it('a subscriber sees every event exactly once, in seq order per tenant, while writers run', async () => {
      const tenants: string[] = [randomUUID(), randomUUID(), randomUUID()];
      const mine = new Set(tenants);
      const seen = new Map<string, number[]>();
      const head = await store.readAll(null, 1_000_000);
      const sub = store.subscribe({
        after: head.checkpoint,
        batchSize: 50,
        handle: async (events) => {
          for (const e of events) if (mine.has(e.tenant_id)) seen.set(e.tenant_id, [...(seen.get(e.tenant_id) ?? []), e.seq]);
        },
      });
      try {
        await appendConcurrently(store, tenants, 12, 10);
        const heads = await Promise.all(tenants.map((t) => store.head(t)));
        await eventually(
          () => tenants.map((t) => seen.get(t)?.length ?? 0),
          (lens) => lens.every((n, i) => n >= heads[i]!),
        );
        tenants.forEach((t, i) => expect(seen.get(t)).to.deep.equal(Array.from({ length: heads[i]! }, (_, k) => k + 1)));
      } finally {
        await sub.stop();
      }
    });
  });
}
