import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { dispatchBatch, DISPATCHER_NAME, webhookDispatcher } from '../../src/dispatch/dispatcher.js';
import { webhookRoutingRules } from '../../src/capabilities/webhooks/index.js';
import { PgNotifier } from '../../src/eventstore/pg-notifier.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createLogger } from '../../src/platform/logger.js';
import { createTestDb, type TestDb } from '../support/db.js';
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

  it('creates nothing new when the same batch is dispatched twice', async () => {
    const events = await store.readTenant(tenant, 0, 1000);
    const before = (await deliveries()).length;
    const { created } = await t.db.transaction((trx) => dispatchBatch(trx, webhookRoutingRules, events.slice(1), clock.now()));
    expect(created).to.equal(0);
    expect(await deliveries()).to.have.length(before);
  });
});
