// When the delivery worker claims from the table. The dispatcher hands the deliveries it creates to the worker;
// a claim after each finished send found nothing then, one planned statement an event (docs/performance.md,
// "Webhooks: what an event costs"). A claim that left due deliveries behind (a target at its cap) is followed by
// another once a send finishes, or those would wait for the poll tick; here the tick is an hour, so a delivery
// left waiting fails the test instead of being found by it.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { dispatchBatch } from '../../src/dispatch/dispatcher.js';
import { claimDue } from '../../src/dispatch/deliveries.repo.js';
import { deliveryWorker, type DeliveryWorker } from '../../src/dispatch/delivery-worker.js';
import type { Sender, SendResult } from '../../src/dispatch/sender.js';
import { webhookRoutingRules } from '../../src/capabilities/webhooks/index.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { PgNotifier } from '../../src/eventstore/pg-notifier.js';
import type { Forgettable } from '../../src/eventstore/forgettable.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { endpointCreated, eventually, pending } from '../support/events.js';

const CLAIM = /^WITH busy AS/;

describe('webhook delivery worker: when it claims', function () {
  this.timeout(60_000);
  let t: TestDb;
  let store: PostgresEventStore;
  let notifier: PgNotifier;
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  let claims = 0;
  const countClaims = (q: { sql: string }) => {
    if (CLAIM.test(q.sql.trimStart())) claims++;
  };

  before(async () => {
    t = await createTestDb('worker_claims');
    store = new PostgresEventStore(t.db, null);
    notifier = new PgNotifier(t.url);
    t.db.on('query', countClaims);
  });
  after(async () => {
    t.db.off('query', countClaims);
    await notifier.close();
    await t.drop();
  });

  /** A sender that records each post and answers 2xx, each post held until `open()` when asked to. */
  function sender(held = false) {
    let open!: () => void;
    const gate = held ? new Promise<void>((resolve) => (open = resolve)) : Promise.resolve();
    const posted: string[] = [];
    const s = {
      posted,
      open: () => open(),
      async post(_url: string, body: string): Promise<SendResult> {
        await gate;
        posted.push(body);
        return { status: 200, error: null, durationMs: 1 };
      },
      close() {},
    };
    return s;
  }

  /** `o.db`: the worker's database handle instead of the test's; `o.attempted`: told of each attempt once it is recorded. */
  function worker(s: ReturnType<typeof sender>, o: { db?: Knex; attempted?: () => void } = {}): DeliveryWorker {
    return deliveryWorker(
      {
        db: o.db ?? t.db,
        ...(o.attempted ? { deliveryObserver: { attempted: o.attempted } } : {}),
        notifier,
        clock,
        log: createLogger('silent'),
        signingSecret: async () => 'a-signing-secret-0123456789',
        forgettable: {} as Forgettable,
        sender: s as unknown as Sender,
      },
      // An hour's poll: every claim here is one the worker made because of a send, a NOTIFY or settled().
      { retryBaseSeconds: 30, timeoutMs: 10_000, pollMs: 3_600_000 },
    );
  }

  /** A workspace whose endpoint takes test.happened, and its `n` events after it, dispatched as the dispatcher does. */
  async function dispatchEvents(w: DeliveryWorker, n: number): Promise<void> {
    const tenant = randomUUID();
    await store.append(tenant, [endpointCreated(randomUUID(), clock.now().toISOString())], 0);
    await store.append(tenant, pending(n), 'any');
    const events = await store.readTenant(tenant, 0, 100);
    const out = await t.db.transaction((trx) => dispatchBatch(trx, webhookRoutingRules, events, clock.now(), new Map(), { ...w, live: true }));
    for (const target of out.unused) w.release([target]);
    w.adopt(out.leased);
  }

  it('claims nothing after the sends of deliveries it was handed, however many', async () => {
    const s = sender();
    const w = worker(s);
    await w.start();
    try {
      await w.settled();
      // Handed over as they are created: one at a time, as a healthy endpoint's events arrive.
      claims = 0;
      for (let i = 0; i < 12; i++) {
        await dispatchEvents(w, 1);
        await w.settled();
      }
      expect(s.posted).to.have.length(12);
      // settled() itself runs a pass (a claim) each time; the sends add none.
      expect(claims).to.equal(12);
    } finally {
      await w.stop();
    }
  });

  it('claims again when a send finishes after a claim left deliveries behind at a target’s cap, until none is left', async () => {
    const s = sender(true);
    const w = worker(s);
    await w.start();
    try {
      await w.settled(); // the start's pass is done: the next claim is the NOTIFY's
      // A new target's cap is 2: two are handed over and held by the sender; three wait in the table, announced.
      const before = claims;
      await dispatchEvents(w, 5);
      // The NOTIFY's pass finds the three but leaves them behind (the target is at its cap).
      await eventually(
        () => claims,
        (n) => n > before,
      );
      s.open();
      // Every send that finishes claims again while some were left: no NOTIFY, no tick, and all five go.
      await eventually(
        () => s.posted.length,
        (n) => n === 5,
      );
      await w.settled();
      expect(s.posted).to.have.length(5);
    } finally {
      await w.stop();
    }
  });

  it('claims again when sends finish while a claim that leaves deliveries behind is in flight', async () => {
    // The claim's answer is held in the service (its statement has run: its snapshot counts the two sends' slots as
    // busy and leaves three behind) while both sends finish and are recorded. A send that finishes then cannot tell
    // that the claim will leave rows behind; with nothing else to wake the worker (the tick is an hour), the three
    // waited (this file's previous test failed so once under CI's load).
    const s = sender(true);
    let hold: Promise<void> | null = null;
    let answered!: () => void;
    const claimAnswered = new Promise<void>((resolve) => (answered = resolve));
    const db = new Proxy(t.db, {
      get(target, prop, receiver) {
        if (prop !== 'raw') return Reflect.get(target, prop, receiver);
        return (sql: string, bindings?: readonly unknown[]) => {
          const q = target.raw(sql, bindings as Knex.RawBinding[]);
          const held = hold;
          if (held === null || !CLAIM.test(sql.trimStart())) return q;
          hold = null;
          return Promise.resolve(q).then(async (r) => {
            answered();
            await held;
            return r;
          });
        };
      },
    });
    let attempts = 0;
    const w = worker(s, { db, attempted: () => attempts++ });
    await w.start();
    try {
      await w.settled();
      let release!: () => void;
      hold = new Promise<void>((resolve) => (release = resolve));
      // Two are handed over and held by the sender; three wait in the table, announced: the NOTIFY's claim is held.
      await dispatchEvents(w, 5);
      await claimAnswered;
      s.open();
      // Both sends recorded (the observer is told after the record), and what follows a send has run.
      await eventually(
        () => attempts,
        (n) => n === 2,
      );
      await new Promise((resolve) => setImmediate(resolve));
      release();
      await eventually(
        () => s.posted.length,
        (n) => n === 5,
      );
      await w.settled();
      expect(s.posted).to.have.length(5);
    } finally {
      await w.stop();
    }
  });

  it('says whether a claim left due deliveries behind', async () => {
    const w = worker(sender());
    // Not started: the worker claims nothing of its own; it hands the dispatcher no slot either.
    const tenant = randomUUID();
    await store.append(tenant, [endpointCreated(randomUUID(), clock.now().toISOString())], 0);
    await store.append(tenant, pending(3), 'any');
    const events = await store.readTenant(tenant, 0, 100);
    await t.db.transaction((trx) => dispatchBatch(trx, webhookRoutingRules, events, clock.now(), new Map(), { ...w, live: true }));
    const limits = { capacity: 10, perTarget: 2, perFastTarget: 16, fastTargets: [], leaseMs: 60_000 };
    const first = await claimDue(t.db, clock.now(), limits);
    expect(first.claimed).to.have.length(2);
    expect(first.leftBehind, 'one is past the cap').to.equal(true);
    clock.advance(120_000); // the two leases run out: the three are due, and the cap has room for two again
    const second = await claimDue(t.db, clock.now(), { ...limits, capacity: 3 });
    expect(second.claimed).to.have.length(2);
    expect(second.leftBehind).to.equal(true);
    clock.advance(120_000);
    const third = await claimDue(t.db, clock.now(), { ...limits, perTarget: 3 });
    expect(third.claimed).to.have.length(3);
    expect(third.leftBehind, 'all claimed').to.equal(false);
  });
});
