// What a write costs Postgres, counted on the wire (test/support/wire-counter.ts):
// the statements and round trips of a reply, of starting a conversation and of a
// bare store append, once warm (prepared statements named, caches filled). Issue
// 50: every feature added to the write path put statements on each write and no
// test noticed; these ceilings make a statement that comes back fail here.
// docs/performance.md (What a write costs Postgres) has the table per feature.
// WIRE_PRINT=1 prints each counted statement.
// These ceilings are the Postgres store's: the file runs on it whatever the
// run's store. With TEST_EVENT_STORE=eventstoredb it also counts what a write
// costs Postgres with the log on EventStoreDB (docs/eventstoredb.md, "What a
// write costs"): no append lock, no shared transaction, more round trips.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { createDb } from '../../src/platform/db/database.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import type { PendingEvent } from '../../src/eventstore/envelope.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { testEventStoreUrl } from '../support/event-store.js';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';
import { createChannel } from '../support/channels.js';
import { WireCounter, type WireCount } from '../support/wire-counter.js';

const PRINT = process.env.WIRE_PRINT === '1' || process.env.WIRE_PRINT === 'full';
const CUT = process.env.WIRE_PRINT === 'full' ? Infinity : 260;

/**
 * Round trips made while holding the workspace's append lock: on the connection that took it in a transaction,
 * from the round trip after the lock's up to COMMIT's (0 for an append that takes and lets go of it inside one
 * statement). A workspace's writes queue behind these, so they bound its write rate.
 */
function underLock(c: WireCount): number {
  const lock = c.statements.find((s) => /es_lock_then_read|pg_advisory_xact_lock/.test(s.text));
  if (!lock) return 0;
  const commit = c.statements.find((s) => s.conn === lock.conn && s.trip > lock.trip && /^COMMIT/.test(s.text));
  return commit ? commit.trip - lock.trip : Infinity;
}

/** What a write may cost at most; a write over these fails the test (see docs/performance.md before raising one). */
function within(c: WireCount, most: { statements: number; roundTrips: number; underLock: number }): void {
  const got = { statements: c.statements.length, roundTrips: c.roundTrips, underLock: underLock(c) };
  const listed = c.statements.map((s) => `[c${s.conn} t${s.trip}] ${s.text.replace(/\s+/g, ' ').slice(0, 160)}`).join('\n');
  expect(got.statements, `statements:\n${listed}`).to.be.at.most(most.statements);
  expect(got.roundTrips, `round trips:\n${listed}`).to.be.at.most(most.roundTrips);
  expect(got.underLock, `round trips under the lock:\n${listed}`).to.be.at.most(most.underLock);
}

function show(label: string, c: WireCount): void {
  if (!PRINT) return;
  console.log(`\n== ${label}: ${c.statements.length} statements, ${c.roundTrips} round trips, ${underLock(c)} under the lock`);
  for (const s of c.statements) console.log(`  [c${s.conn} t${s.trip}] ${s.text.replace(/\s+/g, ' ').slice(0, CUT)}`);
}

type Ceiling = { statements: number; roundTrips: number; underLock: number };
interface Ceilings {
  reply: Ceiling;
  replyKeyed: Ceiling;
  start: Ceiling;
  startKeyed: Ceiling;
}
/**
 * Postgres: BEGIN + lock and its checkpoint read; the read; the append with its projections, the answer's two reads
 * sent behind it; COMMIT, with the NOTIFY sent right behind it (one round trip for both; it was one of its own).
 * EventStoreDB (its appends are gRPC calls, not counted here): the checkpoint and the read, the data keys written
 * before the append, the id index lookup before it and its rows after it, the keys read back to open the appended
 * events, then the projections in a transaction of their own (BEGIN, the checkpoint locked, the writes, COMMIT), and
 * the answer's two reads. Nothing runs under a lock: there is none (the shell queues a workspace's commands in the
 * process instead).
 */
const CEILINGS: Record<'postgres' | 'eventstoredb', Ceilings> = {
  postgres: {
    reply: { statements: 8, roundTrips: 4, underLock: 3 },
    replyKeyed: { statements: 10, roundTrips: 6, underLock: 4 },
    start: { statements: 8, roundTrips: 4, underLock: 3 },
    startKeyed: { statements: 10, roundTrips: 6, underLock: 4 },
  },
  eventstoredb: {
    reply: { statements: 12, roundTrips: 12, underLock: 0 },
    replyKeyed: { statements: 14, roundTrips: 14, underLock: 0 },
    start: { statements: 13, roundTrips: 13, underLock: 0 },
    startKeyed: { statements: 14, roundTrips: 14, underLock: 0 },
  },
};

for (const store of ['postgres', ...(testEventStoreUrl() ? (['eventstoredb'] as const) : [])] as const) {
  describe(`Statements and round trips per write, counted on the wire (the log in ${store === 'postgres' ? 'Postgres' : 'EventStoreDB'})`, function () {
    this.timeout(180_000);
    const most = CEILINGS[store];
    let testDb: TestDb;
    let wire: WireCounter;
    let t: TestService;
    let key: string;
    let channelId: string;
    let conversationId: string;

    before(async () => {
      testDb = await createTestDb('statements_per_write', { max: 30, checkEvents: true });
      const u = new URL(testDb.url);
      wire = new WireCounter({ host: u.hostname, port: Number(u.port) });
      await wire.start();
      t = await startTestService('statements-per-write', {
        clock: new ManualClock(new Date()),
        // No worker runs meanwhile (SLA, webhooks, projections' catch-up): what is counted is the request's.
        // The store named, never the run's by default: the Postgres ceilings are the Postgres store's.
        env: { WORKERS: 'off', ...(store === 'postgres' ? { EVENTSTORE_URL: undefined } : {}) },
        testDb: { ...testDb, url: wire.via(testDb.url) },
      });
      const owner = await newWorkspace(t);
      key = (await mintKey(t, owner, ['conversations:read', 'conversations:write'])).secret;
      channelId = (await createChannel(t, owner)).id;
    });
    after(async () => {
      await t?.close();
      await wire?.stop();
    });

    const start = (idem?: string) =>
      t.client.post(
        '/api/conversations',
        { channel_id: channelId, body: 'Hello from the team', contact: { email: 'buyer@example.com' } },
        { key, ...(idem ? { headers: { 'idempotency-key': idem } } : {}) },
      );
    const reply = (idem?: string) =>
      t.client.post(
        `/api/conversations/${conversationId}/reply`,
        { message_type: 'comment', body: 'On it' },
        { key, ...(idem ? { headers: { 'idempotency-key': idem } } : {}) },
      );

    /**
     * Nothing on its way: no wake-up the services' stores sent is still pending, and every statement on the wire has
     * been answered. The window opens and closes on it: what it counts is the request's, all of it.
     */
    async function quiet(...services: TestService[]): Promise<void> {
      for (const s of services) await s.service.deps.store.quiet?.();
      await wire.idle();
    }

    /**
     * The request's statements, warm: the same request three times first (prepared after two sends, caches filled),
     * then `before` (not counted).
     */
    async function counted(
      label: string,
      send: (i: number) => Promise<{ status: number; text: string }>,
      before?: () => Promise<void>,
      others: TestService[] = [],
    ): Promise<WireCount> {
      for (let i = 0; i < 3; i++) {
        const a = await send(i);
        expect(a.status, a.text).to.equal(201);
      }
      await before?.();
      // A wake-up still in flight would make the request's own go out after its commit, from the pool (one round
      // trip more), and its statements would fall into the window.
      await quiet(t, ...others);
      wire.open();
      const a = await send(3);
      expect(a.status, a.text).to.equal(201);
      // The NOTIFY goes out behind the COMMIT, before the answer; whatever else the write sent is answered by now.
      await quiet(t, ...others);
      const c = wire.close();
      show(label, c);
      return c;
    }

    it('a reply', async () => {
      conversationId = (await start()).body.id;
      // On Postgres: BEGIN + lock and its checkpoint read; the conversation; the append with its projections, the
      // answer's two reads sent behind it; COMMIT; the NOTIFY after it. 6 round trips, 4 under the lock, before issue 50.
      within(await counted('reply', () => reply()), most.reply);
    });

    it('a reply with an Idempotency-Key', async () => {
      // The above, the key's reservation before the transaction and its answer stored (in it, on Postgres).
      within(await counted('reply, Idempotency-Key', () => reply(randomUUID())), most.replyKeyed);
    });

    it('starting a conversation', async () => {
      // The contact by e-mail instead of the conversation; otherwise as a reply.
      within(await counted('POST /api/conversations', () => start()), most.start);
    });

    it('starting a conversation with an Idempotency-Key', async () => {
      within(await counted('POST /api/conversations, Idempotency-Key', () => start(randomUUID())), most.startKeyed);
    });

    if (store === 'postgres')
      it('a reply after another process wrote the workspace last', async () => {
        // Several API processes on one database: the head this one follows was committed by another, so its hash
        // is not the one this process remembers. It comes back with the lock and the checkpoint, in their round
        // trip (migration 062), where it was a statement of its own under the lock (HASH_AT): 9 statements, 6 round
        // trips, 4 under the lock.
        const other = await startTestService('statements-per-write-other', {
          clock: new ManualClock(new Date()),
          env: { WORKERS: 'off', EVENTSTORE_URL: undefined },
          // The same database; this test's `after` drops it.
          testDb: { ...testDb, url: wire.via(testDb.url), drop: async () => undefined },
        });
        try {
          const fromOther = async () => {
            const a = await other.client.post(`/api/conversations/${conversationId}/reply`, { message_type: 'comment', body: 'Mine' }, { key });
            expect(a.status, a.text).to.equal(201);
          };
          within(await counted('reply after another process', () => reply(), fromOther, [other]), most.reply);
        } finally {
          await other.close();
        }
      });

    if (store === 'postgres')
      it('a bare store append', async () => {
        // A database of its own: its probe events are no type of the catalogue the service's database is checked against.
        const own = await createTestDb('statements_per_append', { max: 1 });
        const db = createDb(wire.via(own.url), { max: 4 });
        try {
          const store = new PostgresEventStore(db, null);
          const tenant = randomUUID();
          const ev = (): PendingEvent[] => [
            {
              id: randomUUID(),
              type: 'probe.happened',
              aggregate_type: 'probe',
              aggregate_id: 'p1',
              payload: { n: 1 },
              metadata: {},
              created_at: new Date().toISOString(),
            } as PendingEvent,
          ];
          let head = 0;
          for (let i = 0; i < 3; i++) head = (await store.append(tenant, ev(), head)).at(-1)!.seq;
          // Counting starts once none of the warm-up's wake-ups is in flight and stops once the append's was answered.
          await store.quiet();
          await wire.idle();
          wire.open();
          await store.append(tenant, ev(), head);
          await store.quiet();
          await wire.idle();
          const c = wire.close();
          show('store append', c);
          // es_append alone (it takes the lock, checks the head and the chain link, and commits), with the NOTIFY
          // sent right behind it on its connection: one round trip. Before issue 50: BEGIN + lock, es_append, COMMIT,
          // NOTIFY (5 statements, 4 round trips, 2 under the lock); then es_append and the NOTIFY on a connection of
          // its own (2 statements, 2 round trips).
          within(c, { statements: 2, roundTrips: 1, underLock: 0 });
        } finally {
          await db.destroy();
          await own.drop();
        }
      });
  });
}
