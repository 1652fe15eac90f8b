// The contract every EventStore adapter passes: Postgres always (npm test);
// EventStoreDB when EVENTSTORE_URL is set, and the EventStoreDB adapter against
// the in-process server model (esdb-model-server.ts) always. Every member of the
// port is exercised, above all where the two stores could differ. Each case's
// argument for EventStoreDB is in docs/eventstoredb.md ("The contract suite").
//
// It can run on a long-lived shared server for ever: nothing reads from the
// beginning of the log. `start` is a checkpoint at the end of the log when the
// run began (each EventStoreDB run also has streams of its own, by prefix).
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { EventMetadata, PendingEvent, StoredEvent } from '../../src/eventstore/envelope.js';
import { ForeignCheckpoint, WrongExpectedSeq, type EventStore } from '../../src/eventstore/store.port.js';
import { canonicalReady, chainHash, GENESIS } from '../../src/platform/crypto/chain.js';
import { eventLine } from '../../src/eventstore/export-line.js';
import { eventually, pending, readAllUntil } from '../support/events.js';

export interface StoreUnderTest {
  store: EventStore;
  /** A checkpoint at the end of the log when the run began (null: the log began empty). */
  start: string | null;
  /** The same log written without the chain (AUDIT_CHAIN=off). */
  unchained: EventStore;
  /** Forgets what the server only keeps in memory (a restart), where the harness can. */
  restart?(): Promise<void>;
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

/** What a store gives back, in the terms the two stores must agree on. */
const shape = (events: StoredEvent[]) =>
  events.map((e) => ({ seq: e.seq, id: e.id.toLowerCase(), type: e.type, payload: e.payload, metadata: e.metadata, created_at: e.created_at }));

/** A checkpoint at the current end of the log, read forward from `from` (never from the beginning). */
async function endOf(store: EventStore, from: string | null): Promise<string | null> {
  let cp = from;
  for (;;) {
    const page = await store.readAll(cp, 500);
    if (page.events.length === 0) return page.checkpoint ?? cp;
    cp = page.checkpoint;
  }
}

/** Per tenant of `mine`, the seqs in the order handled. */
function seqsOf(events: StoredEvent[], mine: Set<string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const e of events) if (mine.has(e.tenant_id)) out.set(e.tenant_id, [...(out.get(e.tenant_id) ?? []), e.seq]);
  return out;
}

const oneTo = (n: number) => Array.from({ length: n }, (_, k) => k + 1);

export function runEventStoreContract(label: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`${label} event store contract`, function () {
    let sut: StoreUnderTest;
    let store: EventStore;
    before(async () => {
      sut = await makeStore();
      store = sut.store;
    });
    after(async () => sut?.cleanup());

    it('appends to a new tenant from seq 1 and returns the spec 2.4 envelope fields', async () => {
      const tenant = randomUUID();
      const input = pending(3, { aggregateId: 'conv-9' });
      const stored = await store.append(tenant, input, 0);
      expect(stored.map((e) => e.seq)).to.deep.equal([1, 2, 3]);
      const [first] = await store.readTenant(tenant, 0, 1);
      expect(first).to.include({
        tenant_id: tenant,
        seq: 1,
        type: 'test.happened',
        aggregate_type: 'test',
        aggregate_id: 'conv-9',
        created_at: input[0]!.created_at,
      });
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

    it('treats re-appending the same event ids at the same expected seq as already done', async () => {
      const tenant = randomUUID();
      const batch = pending(2);
      const a = await store.append(tenant, batch, 0);
      const b = await store.append(tenant, batch, 0);
      expect(b.map((e) => [e.seq, e.id])).to.deep.equal(a.map((e) => [e.seq, e.id]));
      expect(await store.head(tenant)).to.equal(2);
    });

    it('re-appending a batch at expected = head (the retry after a conflict) returns the stored events, written once', async () => {
      const tenant = randomUUID();
      const batch = pending(2);
      const a = await store.append(tenant, batch, 0);
      await sut.restart?.();
      // At the head the batch itself made...
      expect(shape(await store.append(tenant, batch, 2))).to.deep.equal(shape(a));
      // ...and at a head that moved past it.
      await store.append(tenant, pending(3), 2);
      await sut.restart?.();
      const again = await store.append(tenant, batch, 5);
      expect(shape(again)).to.deep.equal(shape(a));
      expect(await store.head(tenant)).to.equal(5);
      const all = await allOf(store, tenant);
      expectGapless(all);
      expect(all.filter((e) => batch.some((b) => b.id === e.id)).map((e) => e.seq)).to.deep.equal([1, 2]);
    });

    it("re-appending a batch with 'any' returns the stored events, written once", async () => {
      const tenant = randomUUID();
      const batch = pending(3);
      const a = await store.append(tenant, batch, 'any');
      expect(a.map((e) => e.seq)).to.deep.equal([1, 2, 3]);
      await sut.restart?.();
      expect(shape(await store.append(tenant, batch, 'any'))).to.deep.equal(shape(a));
      await store.append(tenant, pending(2), 'any');
      await sut.restart?.();
      expect(shape(await store.append(tenant, batch, 'any'))).to.deep.equal(shape(a));
      const all = await allOf(store, tenant);
      expect(all.length).to.equal(5);
      expectGapless(all);
    });

    it('gives 16 concurrent appenders on one tenant seqs exactly 1..N', async function () {
      // 160 appends racing for one stream: on EventStoreDB each lost race reads the head and tries again, so the
      // time grows with contention and with the machine's load (7 s alone, past 30 s beside other test files).
      this.timeout(360_000);
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

    it('readByIds finds a batch buried under 1,200 later events, and nothing for ids never written or for []', async () => {
      const tenant = randomUUID();
      await store.append(tenant, pending(3), 0);
      const batch = pending(4, { type: 'test.buried' });
      const stored = await store.append(tenant, batch, 3);
      let head = 7;
      for (let i = 0; i < 24; i++) head = (await store.append(tenant, pending(50), head)).at(-1)!.seq;
      expect(head).to.equal(1207);
      const found = await store.readByIds(
        tenant,
        batch.map((e) => e.id),
      );
      expect(shape(found)).to.deep.equal(shape(stored));
      expect(found.map((e) => e.seq)).to.deep.equal([4, 5, 6, 7]);
      // Any order, any case, mixed with ids never written: the stored ones, ascending by seq.
      const mixed = [randomUUID(), batch[2]!.id.toUpperCase(), batch[0]!.id, randomUUID(), batch[3]!.id, batch[1]!.id];
      expect(shape(await store.readByIds(tenant, mixed))).to.deep.equal(shape(stored));
      expect(await store.readByIds(tenant, [randomUUID(), randomUUID()])).to.deep.equal([]);
      expect(await store.readByIds(tenant, [])).to.deep.equal([]);
      // Another tenant's ids are not this tenant's events.
      expect(
        await store.readByIds(
          randomUUID(),
          batch.map((e) => e.id),
        ),
      ).to.deep.equal([]);
    });

    it('answers head 0 and no events for a tenant that never appended', async () => {
      const tenant = randomUUID();
      expect(await store.head(tenant)).to.equal(0);
      expect(await store.readTenant(tenant, 0, 100)).to.deep.equal([]);
      expect(await store.readByIds(tenant, [randomUUID()])).to.deep.equal([]);
    });

    it('keeps metadata, payload and time exactly, whichever way the event is read back', async () => {
      const tenant = randomUUID();
      const from = await endOf(store, sut.start);
      const metadata: EventMetadata = {
        actor: { type: 'member', id: randomUUID(), member_id: randomUUID() },
        idempotency_key: 'key 1/ü',
        causation_id: randomUUID(),
        request_id: 'req-' + randomUUID(),
      };
      const [full, bare] = pending(2, { at: '2026-03-04T05:06:07.891Z' }) as [PendingEvent, PendingEvent];
      full.metadata = metadata;
      // A key like an index and a number JavaScript prints with an exponent: the export's lines are made otherwise then.
      full.payload = { text: 'héllo ✓ \u{1F600}', n: 12.5, nested: { list: [1, 'two', null, true] }, empty: {}, '10': 'index-like', tiny: 1e-7 };
      bare.metadata = {};
      const appended = await store.append(tenant, [full, bare], 0);
      const expected = [
        { seq: 1, id: full.id, type: full.type, payload: full.payload, metadata, created_at: '2026-03-04T05:06:07.891Z' },
        { seq: 2, id: bare.id, type: bare.type, payload: bare.payload, metadata: {}, created_at: '2026-03-04T05:06:07.891Z' },
      ];
      expect(shape(appended)).to.deep.equal(expected);
      expect(shape(await store.readTenant(tenant, 0, 10))).to.deep.equal(expected);
      expect(shape(await store.readByIds(tenant, [full.id, bare.id]))).to.deep.equal(expected);
      // The audit export's lines, however the store builds them: byte for byte eventLine of the events as stored.
      const stored = await store.readTenant(tenant, 0, 10, { sealed: true });
      const lines = await store.readTenantLines(tenant, 0, 10);
      expect(lines).to.deep.equal(stored.map((e) => ({ seq: e.seq, hash: e.hash ?? null, line: eventLine(e) })));
      expect((await store.readTenantLines(tenant, 1, 10)).map((l) => l.seq)).to.deep.equal([2]);
      expect(await store.readTenantLines(tenant, 0, 1)).to.have.length(1);
      const mine = (events: StoredEvent[]) => events.filter((e) => e.tenant_id === tenant);
      const { seen } = await readAllUntil(store, from, 100, (all) => mine(all).length >= 2);
      expect(shape(mine(seen))).to.deep.equal(expected);
      const pushed: StoredEvent[] = [];
      const sub = store.subscribe({ after: from, handle: async (events) => void pushed.push(...events.filter((e) => e.tenant_id === tenant)) });
      try {
        await eventually(
          () => pushed.length,
          (n) => n >= 2,
        );
      } finally {
        await sub.stop();
      }
      expect(shape(pushed)).to.deep.equal(expected);
    });

    it('reads all tenants from a checkpoint and resumes from the one it returns', async () => {
      const t1 = randomUUID();
      const t2 = randomUUID();
      let cp: string | null = await endOf(store, sut.start);
      await store.append(t1, pending(2), 'any');
      await store.append(t2, pending(3), 'any');
      const read = await readAllUntil(store, cp, 7, (all) => all.filter((e) => e.tenant_id === t1 || e.tenant_id === t2).length >= 5);
      const seen = read.seen;
      cp = read.checkpoint;
      expect(seen.filter((e) => e.tenant_id === t1).map((e) => e.seq)).to.deep.equal([1, 2]);
      expect(seen.filter((e) => e.tenant_id === t2).map((e) => e.seq)).to.deep.equal([1, 2, 3]);
      const empty = await store.readAll(cp, 100);
      expect(empty.events).to.deep.equal([]);
      await store.append(t1, pending(1), 'any');
      const more = (await readAllUntil(store, cp, 100, (all) => all.some((e) => e.tenant_id === t1))).seen;
      expect(more.filter((e) => e.tenant_id === t1).map((e) => e.seq)).to.deep.equal([3]);
      expect(more.filter((e) => e.tenant_id === t2)).to.deep.equal([]);
    });

    it("refuses to read or subscribe from the other store's checkpoint", async () => {
      const foreign = store.kind === 'postgres' ? 'esdb:1234:1234' : '1234:5678';
      let err: unknown;
      await store.readAll(foreign, 10).catch((e) => (err = e));
      expect(err).to.be.instanceOf(ForeignCheckpoint);
      expect((err as Error).message).to.match(store.kind === 'postgres' ? /written by the eventstoredb event store/ : /written by the postgres event store/);
      expect(() => store.subscribe({ after: foreign, handle: async () => undefined })).to.throw(ForeignCheckpoint);
    });

    it('a subscriber sees every event exactly once, in seq order per tenant, while writers run', async () => {
      const tenants: string[] = [randomUUID(), randomUUID(), randomUUID()];
      const mine = new Set(tenants);
      const seen = new Map<string, number[]>();
      const sub = store.subscribe({
        after: await endOf(store, sut.start),
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
        tenants.forEach((t, i) => expect(seen.get(t)).to.deep.equal(oneTo(heads[i]!)));
      } finally {
        await sub.stop();
      }
    });

    it('subscribe, stop, append more, subscribe again from the last handled checkpoint: nothing lost, nothing twice', async () => {
      const tenants = [randomUUID(), randomUUID()];
      const mine = new Set(tenants);
      const handled: StoredEvent[] = [];
      let last: string | null = await endOf(store, sut.start);
      const follow = () =>
        store.subscribe({
          after: last,
          batchSize: 7,
          handle: async (events, checkpoint) => {
            handled.push(...events);
            last = checkpoint; // what a handler persists with its effects
          },
        });
      let sub = follow();
      for (let i = 0; i < 6; i++) await store.append(tenants[i % 2]!, pending(1 + (i % 3)), 'any');
      await eventually(
        () => seqsOf(handled, mine).get(tenants[1]!)?.length ?? 0,
        (n) => n >= 6,
      );
      await sub.stop();
      const before = handled.length;
      // Appended while nobody follows.
      for (let i = 0; i < 10; i++) await store.append(tenants[i % 2]!, pending(2), 'any');
      await new Promise((r) => setTimeout(r, 100));
      expect(handled.length).to.equal(before); // stopped means stopped
      sub = follow();
      try {
        const heads = await Promise.all(tenants.map((t) => store.head(t)));
        await eventually(
          () => tenants.map((t) => seqsOf(handled, mine).get(t)?.length ?? 0),
          (lens) => lens.every((n, i) => n >= heads[i]!),
        );
        await new Promise((r) => setTimeout(r, 100));
        const per = seqsOf(handled, mine);
        tenants.forEach((t, i) => expect(per.get(t)).to.deep.equal(oneTo(heads[i]!)));
      } finally {
        await sub.stop();
      }
    });

    it("redelivers the batch a handler failed on, then goes on; the handled events are each tenant's seqs once", async function () {
      this.timeout(40_000);
      const tenant = randomUUID();
      const mine = new Set<string>([tenant]);
      const calls: StoredEvent[][] = [];
      const succeeded: StoredEvent[] = [];
      const errors: unknown[] = [];
      let failed = false;
      const sub = store.subscribe({
        after: await endOf(store, sut.start),
        batchSize: 10,
        handle: async (events) => {
          const ours = events.filter((e) => mine.has(e.tenant_id));
          calls.push(ours);
          if (!failed && ours.length > 0) {
            failed = true;
            throw new Error('handler fails once on purpose');
          }
          succeeded.push(...ours);
        },
        onError: (e) => errors.push(e),
      });
      try {
        await store.append(tenant, pending(3), 0);
        await eventually(
          () => succeeded.length,
          (n) => n >= 3,
          15_000,
        );
        await store.append(tenant, pending(2), 3);
        await eventually(
          () => succeeded.length,
          (n) => n >= 5,
          15_000,
        );
      } finally {
        await sub.stop();
      }
      const first = calls.find((c) => c.length > 0)!;
      expect(errors.map((e) => (e as Error).message)).to.include('handler fails once on purpose');
      // The failed batch came again: its first event is delivered in a later call.
      expect(calls.slice(calls.indexOf(first) + 1).some((c) => c.some((e) => e.id === first[0]!.id))).to.equal(true);
      expect(succeeded.map((e) => e.seq)).to.deep.equal([1, 2, 3, 4, 5]);
    });

    it('a unit of work appends through its session, refuses a stale expected seq there, and gives its database', async () => {
      const tenant = randomUUID();
      const stored = await store.withTenant(tenant, async (s) => {
        expect(s.inline).to.equal(store.kind === 'postgres');
        expect((await s.db.raw('SELECT 1 AS one')).rows[0].one).to.equal(1);
        return s.append(pending(2), 0);
      });
      expect(stored.map((e) => e.seq)).to.deep.equal([1, 2]);
      expect((await store.readTenant(tenant, 0, 10)).map((e) => e.id)).to.deep.equal(stored.map((e) => e.id));
      let err: unknown;
      await store.withTenant(tenant, (s) => s.append(pending(1), 1)).catch((e) => (err = e));
      expect(err).to.be.instanceOf(WrongExpectedSeq);
      expect(await store.head(tenant)).to.equal(2);
    });

    it("chains each tenant's events from the genesis value: every hash is SHA-256 of the previous one and the event as stored", async () => {
      await canonicalReady;
      const tenants = [randomUUID(), randomUUID()];
      // Concurrent appenders ('any'), a refused append, an idempotent re-append and a restart in between.
      await appendConcurrently(store, tenants, 6, 4);
      const head = await store.head(tenants[0]!);
      const stale = await store.append(tenants[0]!, pending(1), head - 1).catch((e: unknown) => e);
      expect(stale).to.be.instanceOf(WrongExpectedSeq);
      const batch = pending(2, { type: 'test.chained' });
      const appended = await store.append(tenants[0]!, batch, head);
      await sut.restart?.();
      expect((await store.append(tenants[0]!, batch, 'any')).map((e) => e.hash)).to.deep.equal(appended.map((e) => e.hash));
      await store.append(tenants[0]!, pending(1), head + 2);
      for (const tenant of tenants) {
        const events = await allOf(store, tenant);
        let prev = GENESIS;
        for (const e of events) {
          expect(e.hash, `seq ${e.seq}`).to.equal(chainHash(prev, e));
          prev = e.hash!;
        }
        // Every read gives the same hash: by ids, and the stored hash is never part of the metadata.
        const byIds = await store.readByIds(tenant, [events[0]!.id]);
        expect(byIds[0]!.hash).to.equal(events[0]!.hash);
        for (const e of events) expect(e.metadata).to.not.have.property('hash');
      }
    });

    it('names the first event without a chain hash in a range (an export refuses one), null where every event has one', async () => {
      const tenant = randomUUID();
      await store.append(tenant, pending(3), 0);
      await sut.unchained.append(tenant, pending(2), 3);
      await store.append(tenant, pending(2), 5);
      expect(await store.firstUnhashed(tenant, 0, 3)).to.equal(null);
      expect(await store.firstUnhashed(tenant, 0, 7)).to.equal(4);
      expect(await store.firstUnhashed(tenant, 2, 4)).to.equal(4);
      expect(await store.firstUnhashed(tenant, 4, 7)).to.equal(5);
      expect(await store.firstUnhashed(tenant, 5, 7)).to.equal(null);
      expect(await store.firstUnhashed(randomUUID(), 0, 0)).to.equal(null);
    });

    it("reads one aggregate's own events in seq order, within afterSeq, toSeq and limit", async () => {
      const tenant = randomUUID();
      await store.append(tenant, pending(2, { aggregateId: 'a-1' }), 0);
      await store.append(tenant, pending(3, { aggregateId: 'a-2' }), 2);
      await store.append(tenant, pending(2, { aggregateId: 'a-1' }), 5);
      const seqs = async (range: { afterSeq: number; toSeq?: number; limit: number }) =>
        (await store.readAggregate(tenant, 'a-1', range)).map((e) => [e.seq, e.aggregate_id]);
      expect(await seqs({ afterSeq: 0, limit: 10 })).to.deep.equal([
        [1, 'a-1'],
        [2, 'a-1'],
        [6, 'a-1'],
        [7, 'a-1'],
      ]);
      expect(await seqs({ afterSeq: 1, toSeq: 6, limit: 10 })).to.deep.equal([
        [2, 'a-1'],
        [6, 'a-1'],
      ]);
      expect(await seqs({ afterSeq: 0, limit: 3 })).to.deep.equal([
        [1, 'a-1'],
        [2, 'a-1'],
        [6, 'a-1'],
      ]);
      expect(await store.readAggregate(tenant, 'a-3', { afterSeq: 0, limit: 10 })).to.deep.equal([]);
      expect(await store.readAggregate(randomUUID(), 'a-1', { afterSeq: 0, limit: 10 })).to.deep.equal([]);
    });

    it('counts the log (or says it cannot), answers ping, and names its kind', async () => {
      expect(['postgres', 'eventstoredb']).to.include(store.kind);
      await store.ping();
      const before = await store.countAll();
      await store.append(randomUUID(), pending(3), 0);
      const after = await store.countAll();
      if (before === null) expect(after).to.equal(null);
      else expect(after).to.be.at.least(before + 3);
    });
  });
}
