// The dispatcher hands the deliveries it creates to its own process's worker,
// leased at creation, instead of leaving them for a NOTIFY and a claim. What
// the database holds afterwards, and what the worker is given, decide whether a
// pause, a cap or a redone batch is still honoured.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { dispatchBatch } from '../../src/dispatch/dispatcher.js';
import type { Handoff } from '../../src/dispatch/delivery-worker.js';
import type { Claimed } from '../../src/dispatch/deliveries.repo.js';
import { webhookRoutingRules } from '../../src/capabilities/webhooks/index.js';
import { PostgresEventStore } from '../../src/eventstore/postgres.store.js';
import type { PendingEvent, StoredEvent } from '../../src/eventstore/envelope.js';
import { createTestDb, type TestDb } from '../support/db.js';
import { endpointCreated, pending } from '../support/events.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const LEASE_MS = 40_000;

/** A worker with room for `room` more sends, recording what it is given. */
function recordingWorker(room: number) {
  const w = {
    reserved: [] as string[],
    released: [] as string[],
    adopted: [] as Claimed[],
    leaseMs: LEASE_MS,
    reserve(target: string) {
      if (w.reserved.length >= room) return false;
      w.reserved.push(target);
      return true;
    },
    release(targets: readonly string[]) {
      w.released.push(...targets);
    },
    adopt(claimed: readonly Claimed[]) {
      w.adopted.push(...claimed);
    },
  };
  return w satisfies Handoff;
}

describe('webhook dispatcher handing deliveries to its own worker', function () {
  let t: TestDb;
  let store: PostgresEventStore;

  before(async () => {
    t = await createTestDb('handoff');
    store = new PostgresEventStore(t.db, null);
  });
  after(async () => t.drop());

  /** A workspace with one enabled endpoint for test.happened; returns its id and the endpoint's. */
  async function workspace(): Promise<{ tenant: string; endpointId: string }> {
    const tenant = randomUUID();
    const endpointId = randomUUID();
    await store.append(tenant, [endpointCreated(endpointId, NOW.toISOString())], 0);
    return { tenant, endpointId };
  }

  const rowsOf = (tenant: string) => t.db('webhook_deliveries').where({ tenant_id: tenant }).orderBy('seq').select('id', 'seq', 'leased_until', 'lease_token');
  const dispatch = (events: StoredEvent[], handoff: Handoff & { live: boolean }) =>
    t.db.transaction((trx) => dispatchBatch(trx, webhookRoutingRules, events, NOW, new Map(), handoff));

  it('creates what fits the worker leased to it and hands those over; the rest wait unleased for a claim', async () => {
    const { tenant } = await workspace();
    await store.append(tenant, pending(3), 'any');
    const events = await store.readTenant(tenant, 0, 100);
    const worker = recordingWorker(2);

    const out = await dispatch(events, { ...worker, live: true });

    expect(out.created).to.equal(3);
    const rows = await rowsOf(tenant);
    expect(rows.map((r) => r.leased_until === null)).to.deep.equal([false, false, true]);
    expect(rows[0].leased_until.getTime()).to.equal(NOW.getTime() + LEASE_MS);
    expect(out.leased.map((c) => c.id)).to.deep.equal(rows.slice(0, 2).map((r) => r.id));
    expect(out.leased.map((c) => c.lease_token)).to.deep.equal(rows.slice(0, 2).map((r) => r.lease_token));
    expect(out.leased.every((c) => c.attempts === 0 && JSON.parse(c.body).type === 'test.happened')).to.equal(true);
    expect(out.unused).to.deep.equal([]);
  });

  it('hands nothing over when the batch is dispatched again (its rows exist) and gives the reserved slots back', async () => {
    const { tenant, endpointId } = await workspace();
    await store.append(tenant, pending(2), 'any');
    const events = await store.readTenant(tenant, 0, 100);
    await dispatch(events, { ...recordingWorker(0), live: true });
    const before = await rowsOf(tenant);

    const worker = recordingWorker(10);
    const again = await dispatch(events, { ...worker, live: true });

    expect(again).to.deep.include({ created: 0, leased: [] });
    expect(again.unused).to.deep.equal([endpointId, endpointId]);
    expect(await rowsOf(tenant)).to.deep.equal(before);
  });

  it('hands nothing over from a batch behind a backlog: an endpoint disabled further on must find its deliveries waiting', async () => {
    const { tenant } = await workspace();
    await store.append(tenant, pending(2), 'any');
    const events = await store.readTenant(tenant, 0, 100);
    const worker = recordingWorker(10);

    const out = await dispatch(events, { ...worker, live: false });

    expect(out.created).to.equal(2);
    expect(out.leased).to.deep.equal([]);
    expect(worker.reserved).to.deep.equal([]);
    expect((await rowsOf(tenant)).map((r) => r.leased_until)).to.deep.equal([null, null]);
  });

  it('does not lease deliveries to an endpoint the same batch goes on to disable', async () => {
    const { tenant, endpointId } = await workspace();
    const disabled: PendingEvent = {
      id: randomUUID(),
      type: 'webhook_endpoint.updated',
      aggregate_type: 'webhook_endpoint',
      aggregate_id: endpointId,
      payload: { endpoint_id: endpointId, enabled: false },
      metadata: {},
      created_at: NOW.toISOString(),
    };
    await store.append(tenant, [...pending(2), disabled], 'any');
    const events = await store.readTenant(tenant, 0, 100);
    const worker = recordingWorker(10);

    const out = await dispatch(events, { ...worker, live: true });

    expect(out.created).to.equal(2);
    expect(out.leased).to.deep.equal([]);
    expect(worker.reserved).to.deep.equal([]);
    expect((await rowsOf(tenant)).map((r) => r.leased_until)).to.deep.equal([null, null]);
  });
});
