import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { dispatchBatch, DISPATCHER_NAME, webhookDispatcher } from '../../src/dispatch/dispatcher.js';
import { webhookRoutingRules } from '../../src/capabilities/webhooks/index.js';
import { PgNotifier } from '../../src/eventstore/pg-notifier.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { DELIVERIES_CHANNEL, dispatchInOneStatement, insertDeliveries, type LeasedDelivery, type NewDelivery } from '../../src/dispatch/deliveries.repo.js';
import { createDb } from '../../src/platform/db/database.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { WireCounter } from '../support/wire-counter.js';
import { endpointCreated, eventually, pending } from '../support/events.js';

describe('webhook dispatcher coordination (Postgres)', function () {
  let t: TestDb;
  let notifier: PgNotifier;
  let store: PostgresEventStore;
  const tenant = randomUUID();
  const endpointId = randomUUID();
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const log = createLogger('silent');
  const deliveries = () => t.db('webhook_deliveries').where({ tenant_id: tenant, target_id: endpointId }).orderBy('seq');

  before(async () => {
    t = await createTestDb('dispatcher');
    notifier = new PgNotifier(t.url);
    store = new PostgresEventStore(t.db, notifier);
    await store.append(tenant, [endpointCreated(endpointId, '2026-01-01T00:00:00.000Z')], 0);
  });
  after(async () => {
    await notifier.close();
    await t.drop();
  });

  it('runs one dispatcher at a time across holders, hands over when the holder stops, and never doubles a delivery', async () => {
    const a = webhookDispatcher({ db: t.db, store, clock, log, rules: webhookRoutingRules });
    const b = webhookDispatcher({ db: t.db, store, clock, log, rules: webhookRoutingRules });
    await a.start();
    await eventually(
      () => t.db('subscription_checkpoints').where({ name: DISPATCHER_NAME }).first(),
      (r) => !!r,
    );
    await b.start();
    await store.append(tenant, pending(20), 'any');
    await eventually(deliveries, (rows) => rows.length === 20);

    // Exactly one session holds the dispatcher lock in this database (pg_locks lists every database of the cluster,
    // and other test files run their own dispatchers beside this one).
    const holders = await t.db.raw(
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objid = (hashtextextended(?, 0) & 4294967295)::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [`subscription:${DISPATCHER_NAME}`],
    );
    expect(holders.rows[0].n).to.equal(1);

    await a.stop();
    await store.append(tenant, pending(10), 'any');
    await eventually(deliveries, (rows) => rows.length === 30, 15_000);
    await b.stop();

    const rows = await deliveries();
    expect(rows.map((r) => Number(r.seq))).to.deep.equal(Array.from({ length: 30 }, (_, i) => i + 2));
    expect(new Set(rows.map((r) => r.id)).size).to.equal(30);
  });

  it('writes a batch that changes no destination in one statement, on the wire: no transaction of its own', async () => {
    // What the dispatcher sends Postgres, counted by a proxy in front of its pool (test/support/wire-counter.ts).
    const u = new URL(t.url);
    const wire = new WireCounter({ host: u.hostname, port: Number(u.port) });
    await wire.start();
    const db = createDb(wire.via(t.url), { max: 4 });
    const dispatcher = webhookDispatcher({ db, store: new PostgresEventStore(db, notifier), clock, log, rules: webhookRoutingRules });
    try {
      await dispatcher.start();
      const caughtUp = (await deliveries()).length;
      await store.append(tenant, pending(1), 'any');
      await eventually(deliveries, (rows) => rows.length === caughtUp + 1);
      wire.open();
      await store.append(tenant, pending(1), 'any');
      await eventually(deliveries, (rows) => rows.length === caughtUp + 2);
      const sent = wire.close().statements.map((s) => s.text.replace(/\s+/g, ' '));
      const writes = sent.filter((s) => /INSERT INTO webhook_deliveries/.test(s));
      expect(writes, sent.join('\n')).to.have.length(1);
      expect(writes[0], 'the checkpoint moves in the same statement').to.match(/UPDATE subscription_checkpoints/);
      expect(
        sent.filter((s) => /^(BEGIN|COMMIT)/.test(s)),
        sent.join('\n'),
      ).to.deep.equal([]);
    } finally {
      await dispatcher.stop();
      await db.destroy();
      await wire.stop();
    }
  });

  it('creates nothing new when the same batch is dispatched twice', async () => {
    const events = await store.readTenant(tenant, 0, 1000);
    const before = (await deliveries()).length;
    const { created } = await t.db.transaction((trx) => dispatchBatch(trx, webhookRoutingRules, events.slice(1), clock.now()));
    expect(created).to.equal(0);
    expect(await deliveries()).to.have.length(before);
  });
});

describe('webhook dispatcher: a batch that changes no destination, in one statement', function () {
  let t: TestDb;
  let notifier: PgNotifier;
  const name = 'one_statement_probe';
  const at = new Date('2026-01-01T00:00:00Z');
  const rowsFor = (tenant: string, target: string, seqs: number[], lease?: { leased_until: Date; lease_token: string }) =>
    seqs.map((seq): NewDelivery | LeasedDelivery => ({
      id: randomUUID(),
      tenant_id: tenant,
      target_kind: 'endpoint',
      target_id: target,
      series: 0,
      seq,
      event_type: 'conversation_part.created',
      url: 'https://receiver.example/hook',
      body: `{"seq":${seq},"text":"héllo \\u00e9 \\"quoted\\""}`,
      created_at: at,
      ...(lease && seq % 2 === 0 ? lease : {}),
    }));
  const stored = (tenant: string) =>
    t
      .db('webhook_deliveries')
      .where({ tenant_id: tenant })
      .orderBy('seq')
      .select(
        'tenant_id',
        'target_kind',
        'target_id',
        'series',
        'seq',
        'event_type',
        'url',
        'body',
        'state',
        'attempts',
        'next_attempt_at',
        'leased_until',
        'lease_token',
        'created_at',
      );
  const position = async () => (await t.db('subscription_checkpoints').where({ name }).first('position'))?.position;

  before(async () => {
    t = await createTestDb('dispatcher_one_statement');
    notifier = new PgNotifier(t.url);
    await t.db('subscription_checkpoints').insert({ name, position: '1:1' });
  });
  after(async () => {
    await notifier.close();
    await t.drop();
  });

  it("writes the rows the transaction's insert writes, moves the checkpoint, and wakes the workers", async () => {
    const lease = { leased_until: new Date('2026-01-01T00:00:30Z'), lease_token: randomUUID() };
    const [here, there, target] = [randomUUID(), randomUUID(), randomUUID()];
    const woken: string[] = [];
    const stop = await notifier.listen(DELIVERIES_CHANNEL, (p) => woken.push(p));
    try {
      const out = await dispatchInOneStatement(t.db, { name, expected: '1:1', position: '1:5' }, rowsFor(here, target, [1, 2, 3, 4], lease), true);
      expect(out.moved).to.equal(true);
      expect(out.created.size).to.equal(4);
      await t.db.transaction((trx) => insertDeliveries(trx, rowsFor(there, target, [1, 2, 3, 4], lease)));
      const mine = await stored(here);
      expect(mine).to.have.length(4);
      expect(mine.map((r) => ({ ...r, tenant_id: there }))).to.deep.equal(await stored(there));
      expect(mine.filter((r) => r.lease_token !== null).map((r) => Number(r.seq))).to.deep.equal([2, 4]);
      expect(await position()).to.equal('1:5');
      await eventually(
        () => woken.length,
        (n) => n >= 1,
      );
    } finally {
      stop();
    }
  });

  it('writes nothing when the checkpoint is not where this process left it', async () => {
    const tenant = randomUUID();
    const out = await dispatchInOneStatement(t.db, { name, expected: '1:1', position: '1:9' }, rowsFor(tenant, randomUUID(), [1, 2]), true);
    expect(out).to.deep.equal({ moved: false, created: new Set() });
    expect(await stored(tenant)).to.deep.equal([]);
    expect(await position()).to.equal('1:5');
  });

  it('creates nothing new for a batch dispatched again, and says so', async () => {
    const [tenant, target] = [randomUUID(), randomUUID()];
    const rows = rowsFor(tenant, target, [7, 8]);
    expect((await dispatchInOneStatement(t.db, { name, expected: '1:5', position: '1:6' }, rows, false)).created.size).to.equal(2);
    const again = await dispatchInOneStatement(t.db, { name, expected: '1:6', position: '1:7' }, rowsFor(tenant, target, [7, 8]), false);
    expect(again).to.deep.equal({ moved: true, created: new Set() });
    expect(await stored(tenant)).to.have.length(2);
  });
});
