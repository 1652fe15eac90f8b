import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import type { DeliveryWorker } from '../../src/dispatch/delivery-worker.js';
import { eventually } from '../support/events.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { always, Receiver } from './receiver.js';

const TIMEOUT_MS = 3000;
/** the delivery worker's default in-flight cap for an endpoint that has not answered fast */
const PER_ENDPOINT_CAP = 2;
const delayAfter = (failures: number) => 30_000 * 2 ** (failures - 1);

describe('webhook retries, dead deliveries and slow receivers', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  const receivers: Receiver[] = [];
  const as = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });
  // Wakes the workers now instead of at their next poll tick (what the dispatcher's NOTIFY does).
  const kick = () => t.service.deps.db.raw("SELECT pg_notify('webhook_deliveries', '')");
  // A negative check waits for a pass of the worker that began after the clock moved, not for a fixed time.
  const worker = () => t.service.workers.find((w) => w.name === 'webhook-delivery-worker') as DeliveryWorker;
  const endpointFor = async (r: Receiver) => {
    const ep = await t.client.post('/api/webhooks', { url: r.url, event_names: ['member.invited'], description: '' }, as());
    expect(ep.status, ep.text).to.equal(201);
    return ep.body.id as string;
  };
  const invite = () => t.client.post('/api/members/invites', { email: `p${Math.random()}@example.com`, role: 'agent' }, as());
  const deliveries = async (endpointId: string) => (await t.client.get(`/api/webhooks/${endpointId}/deliveries`, as())).body.data;
  const settledAt = (endpointId: string, attempts: number) =>
    eventually(
      () => deliveries(endpointId),
      (d) => d[0]?.attempts === attempts,
    ).then((d) => d[0]);

  /** Drives one delivery through `n` attempts, moving the injected clock exactly to each due time. */
  async function driveAttempts(r: Receiver, endpointId: string, n: number) {
    for (let k = 1; k <= n; k++) {
      await r.waitFor(k);
      const d = await settledAt(endpointId, k);
      if (k === n) return d;
      expect(Date.parse(d.next_attempt_at) - Date.parse(d.last_attempt_at), `delay after failure ${k}`).to.equal(delayAfter(k));
      clock.advance(delayAfter(k) - 1000);
      await worker().settled();
      expect(r.received, `one second before attempt ${k + 1} is due`).to.have.length(k);
      clock.advance(1000);
      await kick();
    }
  }

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('webhook_retries', { clock, env: { WEBHOOK_ALLOWLIST: '127.0.0.1', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    owner = await newWorkspace(t);
  });
  after(async () => {
    await t.close();
    for (const r of receivers) await r.close();
  });

  it('retries a receiver that answers 500 seven times: 8 attempts, 30, 60, 120 ... seconds apart, then delivered', async () => {
    const r = await new Receiver((n) => (n < 7 ? 500 : 200), clock).start();
    receivers.push(r);
    const endpointId = await endpointFor(r);
    await invite();
    const last = await driveAttempts(r, endpointId, 8);
    expect(last).to.include({ state: 'delivered', attempts: 8, last_status: 200, last_error: null, next_attempt_at: null });

    const gaps = r.received.slice(1).map((x, i) => (x.at.getTime() - r.received[i]!.at.getTime()) / 1000);
    expect(gaps).to.deep.equal([30, 60, 120, 240, 480, 960, 1920]);
    expect(new Set(r.received.map((x) => x.raw.toString('utf8'))).size, 'every attempt sends the same bytes').to.equal(1);

    const detail = await t.client.get(`/api/webhooks/${endpointId}/deliveries/${last.id}`, as());
    expect(detail.body.attempt_log.map((a: { status: number }) => a.status)).to.deep.equal([500, 500, 500, 500, 500, 500, 500, 200]);
    const logGaps = detail.body.attempt_log
      .slice(1)
      .map((a: { at: string }, i: number) => (Date.parse(a.at) - Date.parse(detail.body.attempt_log[i].at)) / 1000);
    expect(logGaps).to.deep.equal([30, 60, 120, 240, 480, 960, 1920]);
    for (const a of detail.body.attempt_log) expect(a.duration_ms).to.be.a('number');

    clock.advance(24 * 3600_000);
    await worker().settled();
    expect(r.received).to.have.length(8);
  });

  it('marks a delivery dead after the 8th failure, with the last status and error in the delivery log', async () => {
    const r = await new Receiver(always(503), clock).start();
    receivers.push(r);
    const endpointId = await endpointFor(r);
    await invite();
    const last = await driveAttempts(r, endpointId, 8);
    expect(last).to.include({ state: 'dead', attempts: 8, last_status: 503, next_attempt_at: null, delivered_at: null });
    expect(last.last_error).to.include('503');

    const dead = await t.client.get(`/api/webhooks/${endpointId}/deliveries?state=dead`, as());
    expect(dead.body.data.map((d: { id: string }) => d.id)).to.deep.equal([last.id]);
    clock.advance(24 * 3600_000);
    await worker().settled();
    expect(r.received).to.have.length(8);
  });

  it('records a refused connection as a failed attempt with its reason', async () => {
    const r = await new Receiver(always(200), clock).start();
    const endpointId = await endpointFor(r);
    await r.close(); // nothing listens there any more
    await invite();
    const d = await settledAt(endpointId, 1);
    expect(d).to.include({ state: 'pending', attempts: 1, last_status: null });
    expect(d.last_error).to.include('connection refused');
  });

  it('does not let a receiver that hangs delay deliveries to a healthy endpoint', async () => {
    const hanging = await new Receiver(() => 'hang', clock).start();
    const healthy = await new Receiver(always(200), clock).start();
    receivers.push(hanging, healthy);
    const hangingId = await endpointFor(hanging); // created first, so its deliveries are older in every batch
    const healthyId = await endpointFor(healthy);
    const n = PER_ENDPOINT_CAP + 4;
    for (let i = 0; i < n; i++) expect((await invite()).status).to.equal(201);

    await healthy.waitFor(n, TIMEOUT_MS);
    await hanging.waitFor(PER_ENDPOINT_CAP, TIMEOUT_MS);
    const stuck = await deliveries(hangingId);
    // Every healthy delivery went out while the hanging ones were still in flight (none has timed out yet),
    // and the hanging endpoint never had more than its cap of requests open.
    expect(stuck).to.have.length(n);
    expect(stuck.every((d: { attempts: number }) => d.attempts === 0)).to.equal(true);
    expect(hanging.received).to.have.length(PER_ENDPOINT_CAP);
    await eventually(
      () => deliveries(healthyId),
      (d) => d.length === n && d.every((x: { state: string }) => x.state === 'delivered'),
    );

    const timedOut = await eventually(
      () => deliveries(hangingId),
      (d) => d.filter((x: { attempts: number }) => x.attempts === 1).length >= PER_ENDPOINT_CAP,
      TIMEOUT_MS * 4,
    );
    const failed = timedOut.filter((x: { attempts: number }) => x.attempts === 1);
    for (const d of failed) {
      expect(d.state).to.equal('pending');
      expect(d.last_status).to.equal(null);
      expect(d.last_error).to.include('timeout');
    }
  });
});
