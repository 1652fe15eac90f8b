import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'chai';
import type { StoredEvent } from '../../src/eventstore/envelope.js';
import { PgNotifier } from '../../src/eventstore/pg-notifier.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { WrongExpectedSeq, type ReadModels } from '../../src/eventstore/store.port.js';
import { canonicalReady, chainHash, GENESIS } from '../../src/platform/crypto/chain.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { eventually, pending } from '../support/events.js';
import { runEventStoreContract } from './store.contract.js';

runEventStoreContract('Postgres', async () => {
  const t = await createTestDb('es_contract', { max: 30 });
  const notifier = new PgNotifier(t.url);
  return {
    store: new PostgresEventStore(t.db, notifier),
    unchained: new PostgresEventStore(t.db, notifier, { chain: false }),
    start: null, // a database of its own: the log began empty
    cleanup: async () => {
      await notifier.close();
      await t.drop();
    },
  };
});

describe('Postgres event store: late commits', function () {
  let t: TestDb;
  let store: PostgresEventStore;
  let notifier: PgNotifier;
  before(async () => {
    t = await createTestDb('es_late', { max: 10 });
    notifier = new PgNotifier(t.url);
    store = new PostgresEventStore(t.db, notifier);
  });
  after(async () => {
    await notifier.close();
    await t.drop();
  });

  it('never skips an event whose transaction started first but committed after a later one', async () => {
    const slowTenant = randomUUID();
    const fastTenant = randomUUID();
    const seen: StoredEvent[] = [];
    const sub = store.subscribe({ after: null, batchSize: 10, handle: async (evs) => void seen.push(...evs) });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let appended!: () => void;
    const slowAppended = new Promise<void>((r) => (appended = r));
    try {
      // The slow transaction appends first (lower xid, lower position) and is held open on purpose.
      const slow = store.withTenant(slowTenant, async (s) => {
        await s.append(pending(1, { type: 'slow.happened' }), 0);
        appended();
        await held;
      });
      await slowAppended;
      await store.append(fastTenant, pending(1, { type: 'fast.happened' }), 0);
      await store.append(fastTenant, pending(1, { type: 'fast.happened' }), 1);
      // Let the subscriber finish reads that began after both fast appends committed:
      // it must not move past the open transaction, yet it has seen what lies below it.
      await sub.settled!();
      await sub.settled!();
      expect(seen.map((e) => e.type)).to.not.include('slow.happened');
      release();
      await slow;
      await eventually(
        () => seen.length,
        (n) => n >= 3,
      );
      expect(seen.map((e) => e.type).sort()).to.deep.equal(['fast.happened', 'fast.happened', 'slow.happened']);
      expect(seen.filter((e) => e.tenant_id === fastTenant).map((e) => e.seq)).to.deep.equal([1, 2]);
    } finally {
      release();
      await sub.stop();
    }
  });

  it('reads under the lock what the previous holder committed while it waited (found by the scale-out run)', async () => {
    const tenant = randomUUID();
    await t.db('projection_checkpoints').insert({ tenant_id: tenant, last_seq: 5 });
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))', [tenant]);
      const read = store.withTenant(tenant, async (s) => s.at, {
        checkpointQuery: 'SELECT last_seq FROM projection_checkpoints WHERE tenant_id = $1',
        checkpoint: () => Promise.reject(new Error('an inline store reads the checkpoint on its lock')),
        project: () => Promise.reject(new Error('an inline store projects with its append')),
      });
      // The session is queued behind the holder's lock...
      await eventually(
        async () =>
          (
            await t.db.raw(
              "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            )
          ).rows[0].n,
        (n) => n >= 1,
      );
      // ...when the holder commits a newer checkpoint and lets go.
      await holder.query('UPDATE projection_checkpoints SET last_seq = 9 WHERE tenant_id = $1', [tenant]);
      await holder.query('COMMIT');
      expect(await read).to.equal(9);
    } finally {
      await holder.end();
    }
  });

  it('leaves no gap when an append transaction rolls back', async () => {
    const tenant = randomUUID();
    await store.append(tenant, pending(1), 0);
    await store
      .withTenant(tenant, async (s) => {
        await s.append(pending(2), 1);
        throw new Error('abort on purpose');
      })
      .catch(() => undefined);
    const next = await store.append(tenant, pending(1), 1);
    expect(next[0]!.seq).to.equal(2);
  });
});

describe('Postgres event store: statements sent behind an append', function () {
  let t: TestDb;
  let notifier: PgNotifier;
  before(async () => {
    t = await createTestDb('es_behind', { max: 10 });
    notifier = new PgNotifier(t.url);
  });
  after(async () => {
    await notifier.close();
    await t.drop();
  });

  it('run after it, also when the append first reads what another process committed (the chain hash it follows)', async () => {
    // Two processes on one database: each store knows only the chain heads it committed itself.
    const here = new PostgresEventStore(t.db, notifier);
    const elsewhere = new PostgresEventStore(t.db, notifier);
    const tenant = randomUUID();
    await here.append(tenant, pending(1), 0);
    await elsewhere.append(tenant, pending(1), 1);
    // A settle reads what the append writes, sent right behind it without waiting (CommandWriter.writeDecided).
    const seen = await here.withTenant(tenant, async (s) => {
      const appending = s.append(pending(1), 2);
      const reading = s.db('events').where({ tenant_id: tenant, seq: 3 }).count<{ n: string }[]>({ n: '*' });
      const [stored, read] = await Promise.all([appending, reading]);
      expect(stored.map((e) => e.seq)).to.deep.equal([3]);
      return Number(read[0]!.n);
    });
    expect(seen).to.equal(1);
  });
});

describe('Postgres event store: the one-statement append checks the chain link it follows (migration 045)', function () {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('es_linked', { max: 10 });
  });
  after(async () => t.drop());

  const verify = async (tenant: string) => {
    await canonicalReady;
    const rows = (await t.db.raw('SELECT * FROM events WHERE tenant_id = ? ORDER BY seq', [tenant])).rows as (StoredEvent & { created_at: Date })[];
    let prev = GENESIS;
    rows.forEach((r, i) => {
      expect(Number(r.seq), 'gapless').to.equal(i + 1);
      expect(r.hash, `seq ${r.seq}`).to.equal(chainHash(prev, { ...r, seq: Number(r.seq), created_at: r.created_at.toISOString() }));
      prev = r.hash!;
    });
    return rows.length;
  };

  it('refuses a link that does not hold (ES412) and appends nothing', async () => {
    const store = new PostgresEventStore(t.db, null);
    const tenant = randomUUID();
    await store.append(tenant, pending(2), 0);
    const events = pending(1).map((e) => ({ ...e, hash: 'f'.repeat(64) }));
    const err = await t.db.raw('SELECT * FROM es_append(?::uuid, 2, ?::jsonb, ?)', [tenant, JSON.stringify(events), 'e'.repeat(64)]).catch((e: unknown) => e);
    expect((err as { code?: string }).code).to.equal('ES412');
    expect(await store.head(tenant)).to.equal(2);
  });

  it("goes the locked way when the head it remembers is not the head's hash, and chains from the stored one", async () => {
    const store = new PostgresEventStore(t.db, null);
    const tenant = randomUUID();
    await store.append(tenant, pending(1), 0);
    // What no release does (a committed hash never changes): the remembered link no longer holds.
    await t.db.raw('UPDATE events SET hash = ? WHERE tenant_id = ? AND seq = 1', ['a'.repeat(64), tenant]);
    const [second] = await store.append(tenant, pending(1), 1);
    await canonicalReady;
    expect(second!.hash).to.equal(chainHash('a'.repeat(64), second!));
  });

  it("appends 'any' after a head another process moved, and numbered appends after heads it never saw: gapless, chained", async () => {
    const here = new PostgresEventStore(t.db, null);
    const elsewhere = new PostgresEventStore(t.db, null);
    const tenant = randomUUID();
    await here.append(tenant, pending(2), 'any');
    await elsewhere.append(tenant, pending(1), 'any'); // remembers nothing of this tenant: reads the head first
    await here.append(tenant, pending(1), 'any'); // remembers seq 2, the head is 3
    await elsewhere.append(tenant, pending(2), 4); // remembers 3: reads the hash at 4
    const stale = await here.append(tenant, pending(1), 4).catch((e: unknown) => e);
    expect(stale).to.be.instanceOf(WrongExpectedSeq);
    expect((stale as WrongExpectedSeq).actual).to.equal(6);
    await Promise.all([here.append(tenant, pending(1), 'any'), elsewhere.append(tenant, pending(2), 'any'), here.append(tenant, pending(3), 'any')]);
    expect(await verify(tenant)).to.equal(12);
  });

  it("in commands' transactions, follows a head another process committed with the hash read with the lock (migration 062)", async () => {
    const here = new PostgresEventStore(t.db, null);
    const elsewhere = new PostgresEventStore(t.db, null);
    const tenant = randomUUID();
    // What a command's transaction reads under the lock (the read models' checkpoint): here the head itself.
    const readModels = { checkpointQuery: 'SELECT last_seq FROM event_heads WHERE tenant_id = $1' } as ReadModels;
    const command = (store: PostgresEventStore, n: number) => store.withTenant(tenant, (s) => s.append(pending(n), s.at), readModels);
    // Each turn of process follows a head the other committed, whose hash it never saw; the same process twice
    // in a row follows its own.
    for (const [store, n] of [
      [here, 2],
      [elsewhere, 1],
      [here, 2],
      [here, 1],
      [elsewhere, 3],
      [here, 1],
      [elsewhere, 1],
    ] as const)
      await command(store, n);
    expect(await verify(tenant)).to.equal(11);
  });

  const transactions = async (tenant: string) =>
    Number((await t.db.raw('SELECT count(DISTINCT tx_id) AS n FROM events WHERE tenant_id = ?', [tenant])).rows[0].n);

  it("sends the appends of 'any' made while one is in flight as one, after it: each caller its own events, in order", async () => {
    const store = new PostgresEventStore(t.db, null);
    const tenant = randomUUID();
    const appends = Array.from({ length: 20 }, (_, i) => pending(1 + (i % 3)));
    const answers = await Promise.all(appends.map((events) => store.append(tenant, events, 'any')));
    let seq = 0;
    answers.forEach((stored, i) => {
      expect(
        stored.map((e) => e.id),
        `append ${i}`,
      ).to.deep.equal(appends[i]!.map((e) => e.id));
      for (const e of stored) expect(e.seq, `append ${i}: in the order made, gapless`).to.equal(++seq);
    });
    expect(await verify(tenant)).to.equal(seq);
    // The first alone (nothing was in flight), the 19 made meanwhile together: not one transaction each.
    expect(await transactions(tenant)).to.equal(2);
  });

  it('answers each caller of a batch as it would have been answered alone: a retry with its stored events, a refused event alone', async () => {
    const store = new PostgresEventStore(t.db, null);
    const tenant = randomUUID();
    const first = pending(2);
    const stored1 = await store.append(tenant, first, 'any');
    const refused = pending(1).map((e) => ({ ...e, aggregate_id: null as unknown as string }));
    // The first call of each round is in flight when the others are made: they queue behind it and go together.
    const round = (calls: ReturnType<typeof pending>[]) => Promise.allSettled(calls.map((events) => store.append(tenant, events, 'any')));
    const value = (a: PromiseSettledResult<StoredEvent[]>) => (a as PromiseFulfilledResult<StoredEvent[]>).value;
    // A retry first in its batch: es_append's probe answers it, and appends nothing of the others.
    const one = await round([pending(1), first, pending(2)]);
    expect(one.map((a) => a.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(value(one[1]!), 'the retry: the events stored before').to.deep.equal(stored1);
    expect([0, 2].flatMap((i) => value(one[i]!).map((e) => e.seq))).to.deep.equal([3, 4, 5]);
    // A retry and a refused event inside a batch: the statement fails, and each call is made again alone.
    const two = await round([pending(1), pending(2), first, refused, pending(1)]);
    expect(two.map((a) => a.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(value(two[2]!), 'the retry: the events stored before').to.deep.equal(stored1);
    expect((two[3] as PromiseRejectedResult).reason).to.have.property('code', '23502');
    expect([0, 1, 4].flatMap((i) => value(two[i]!).map((e) => e.seq))).to.deep.equal([6, 7, 8, 9]);
    expect(await verify(tenant)).to.equal(9);
  });
});
