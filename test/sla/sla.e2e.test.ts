// SLA policies on business hours, breaches at the deadline and response statistics (issue 34, items 3 to 5).
import { expect } from 'chai';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { createTestDb } from '../support/db.js';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';
import { ManualClock, systemClock } from '../../src/platform/clock.js';
import { rebuildReadModels } from '../../src/projections/rebuild.js';

type Reply = { status: number; text: string; body: any };
const SCOPES = ['settings:read', 'settings:write', 'conversations:read', 'conversations:write', 'events:read'];

async function ok(r: Promise<Reply>, status = 200) {
  const a = await r;
  expect(a.status, a.text).to.equal(status);
  return a.body;
}

const slaWorker = (t: TestService) => t.service.workers.find((w) => w.name === 'sla') as unknown as { tick(): Promise<number> };

async function setUp(t: TestService) {
  const owner = await newWorkspace(t);
  const key = (await mintKey(t, owner, SCOPES)).secret;
  const channel = await createChannel(t, owner);
  const start = async () =>
    (await ok(
      t.client.post(
        '/api/conversations',
        { channel_id: channel.id, body: 'Hello', contact: { email: `c-${Math.random().toString(36).slice(2)}@example.com` } },
        { key },
      ),
      201,
    )) as { id: string };
  return { owner, key, channel, start };
}

describe('SLA: a breach at the deadline, once, with two service instances on one database', function () {
  this.timeout(180_000);
  let a: TestService;
  let b: TestService;

  before(async () => {
    // Real time on both: their workers poll every second, neither is ticked by the test until the breach has landed.
    const testDb = await createTestDb('sla_two', { max: 30, checkEvents: true });
    a = await startTestService('sla-a', { clock: systemClock, testDb });
    b = await startTestService('sla-b', { clock: systemClock, testDb: { ...testDb, drop: async () => undefined } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('a 3-second first-response target breaches with no other traffic, and emits conversation.sla_breached once', async () => {
    const { key, start } = await setUp(a);
    const policy = await ok(a.client.post('/api/sla_policies', { name: 'Fast', first_response_target_seconds: 3 }, { key }), 201);
    const c = await start();
    const breaches = async () =>
      ((await ok(a.client.get('/api/events?per_page=100&types=conversation.sla_breached', { key }))).data as any[]).filter((e) => e.aggregate_id === c.id);
    const until = Date.now() + 30_000;
    while ((await breaches()).length === 0) {
      expect(Date.now(), 'a breach within 30 s of a 3 s target').to.be.below(until);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Both instances complete a pass after the deadline: neither adds a second breach.
    await Promise.all([slaWorker(a).tick(), slaWorker(b).tick()]);
    const [breach, ...more] = await breaches();
    expect(more).to.deep.equal([]);
    expect(breach.payload).to.include({ conversation_id: c.id, policy_id: policy.id, target: 'first_response' });
    const lateBy = new Date(breach.created_at).getTime() - new Date(breach.payload.due_at).getTime();
    expect(lateBy, 'appended at or after its due date').to.be.at.least(0);
    const sla = (await ok(b.client.get(`/api/conversations/${c.id}/sla`, { key }))).sla;
    expect(sla).to.deep.include({ policy_id: policy.id, first_response_due_at: null });
    expect(sla.breaches).to.have.length(1);
    expect(sla.breaches[0]).to.include({ target: 'first_response', due_at: breach.payload.due_at });
  });
});

describe('SLA on business hours, with an injected clock', function () {
  this.timeout(180_000);
  // Friday 16:00 in Paris (UTC+1 in January).
  const clock = new ManualClock('2026-01-09T15:00:00.000Z');
  let t: TestService;

  before(async () => {
    t = await startTestService('sla-hours', { clock });
  });
  after(async () => t?.close());

  it('stops the clock outside business hours: a 2-hour target from Friday 16:00 falls due Monday 10:00', async () => {
    const { key, start } = await setUp(t);
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => ({ day, start: '09:00', end: '17:00' }));
    const hours = await ok(t.client.put('/api/settings/business_hours', { time_zone: 'Europe/Paris', intervals: weekdays, holidays: ['2026-12-25'] }, { key }));
    expect(hours).to.include({ time_zone: 'Europe/Paris' });
    await ok(t.client.post('/api/sla_policies', { name: 'Office', first_response_target_seconds: 7200, business_hours: true }, { key }), 201);
    const c = await start();
    const worker = slaWorker(t);
    const sla = async () => (await ok(t.client.get(`/api/conversations/${c.id}/sla`, { key }))).sla;
    await worker.tick();
    // One hour on Friday, the second from 09:00 on Monday (10:00 Paris is 09:00 UTC).
    expect((await sla()).first_response_due_at).to.equal('2026-01-12T09:00:00.000Z');
    clock.set('2026-01-11T12:00:00.000Z'); // Sunday: two calendar days later, still not due
    await worker.tick();
    expect((await sla()).breaches).to.deep.equal([]);
    clock.set('2026-01-12T08:59:00.000Z');
    await worker.tick();
    expect((await sla()).breaches).to.deep.equal([]);
    clock.set('2026-01-12T09:00:30.000Z');
    await worker.tick();
    expect((await sla()).breaches).to.deep.equal([{ target: 'first_response', due_at: '2026-01-12T09:00:00.000Z', breached_at: '2026-01-12T09:00:30.000Z' }]);
  });

  it('refuses a match.query Postgres cannot parse; a policy stored with one is skipped and logged, and the policies after it still apply', async () => {
    const { owner, key, channel } = await setUp(t);
    const poison = { field: 'body', operator: '~', value: `${'-'.repeat(33)}a` };
    const refused = await t.client.post('/api/sla_policies', { name: 'Poison', first_response_target_seconds: 60, match: { query: poison } }, { key });
    expect(refused.status, refused.text).to.equal(400);
    expect(refused.body.errors[0]).to.include({ code: 'invalid_query', field: 'match.query.value' });
    // One stored before the check existed, tried first, then an urgent policy.
    const first = await ok(
      t.client.post(
        '/api/sla_policies',
        { name: 'Refunds', first_response_target_seconds: 60, match: { query: { field: 'body', operator: '~', value: 'refund' } } },
        { key },
      ),
      201,
    );
    await t.testDb
      .db('sla_policies')
      .where({ tenant_id: owner.workspaceId, id: first.id })
      .update({ match: JSON.stringify({ query: poison }) });
    const urgent = await ok(
      t.client.post('/api/sla_policies', { name: 'Urgent', first_response_target_seconds: 600, match: { priority: ['urgent'] } }, { key }),
      201,
    );
    const c = await ok(
      t.client.post('/api/conversations', { channel_id: channel.id, body: 'Help', priority: 'urgent', contact: { email: 'urgent@example.com' } }, { key }),
      201,
    );
    await slaWorker(t).tick();
    const sla = (await ok(t.client.get(`/api/conversations/${c.id}/sla`, { key }))).sla;
    expect(sla).to.include({ policy_id: urgent.id });
    expect(t.logs.join('')).to.include('sla policy skipped').and.include(first.id);
  });

  it('refuses a time zone the IANA database does not know', async () => {
    const { key } = await setUp(t);
    const r = await t.client.put('/api/settings/business_hours', { time_zone: 'Mars/Olympus', intervals: [], holidays: [] }, { key });
    expect(r.status, r.text).to.equal(400);
    expect(r.body.errors[0]).to.include({ code: 'invalid_time_zone' });
  });
});

describe('Conversation statistics', function () {
  this.timeout(180_000);
  const clock = new ManualClock('2026-02-02T10:00:00.000Z');
  let t: TestService;

  before(async () => {
    t = await startTestService('sla-stats', { clock });
  });
  after(async () => t?.close());

  it('first_response_seconds is set by the first teammate reply, and a rebuild reproduces it', async () => {
    const { owner, key, channel } = await setUp(t);
    const c = { id: (await postInbound(t, channel.id, channel.secret, inboundBody())).body.conversation_id as string };
    const stats = async () => (await ok(t.client.get(`/api/conversations/${c.id}/statistics`, { key }))).statistics;
    expect(await stats()).to.include({ first_response_at: null, first_response_seconds: null, teammate_replies: 0 });
    clock.advance(60_000);
    await ok(t.client.post(`/api/conversations/${c.id}/reply`, { message_type: 'note', body: 'internal' }, { key }), 201);
    expect((await stats()).first_response_seconds, 'a note is no reply').to.equal(null);
    clock.advance(30_000);
    await ok(t.client.post(`/api/conversations/${c.id}/reply`, { message_type: 'comment', body: 'On it' }, { key }), 201);
    clock.advance(30_000);
    await ok(t.client.post(`/api/conversations/${c.id}/reply`, { message_type: 'comment', body: 'Done' }, { key }), 201);
    const before = await stats();
    expect(before).to.include({ first_response_at: '2026-02-02T10:01:30.000Z', first_response_seconds: 90, teammate_replies: 2 });
    const { db, store } = t.service.deps;
    const rows = () => db('conversation_statistics').where({ tenant_id: owner.workspaceId }).orderBy('conversation_id');
    const stored = await rows();
    await rebuildReadModels(db, store, t.service.engine);
    expect(await rows()).to.deep.equal(stored);
    expect(await stats()).to.deep.equal(before);
  });

  it('GET /api/reports/response_times: count, median and p90 of first response, in calendar and business time', async () => {
    const { key, channel } = await setUp(t);
    const since = clock.now().toISOString();
    for (const wait of [60, 120, 600]) {
      const id = (await postInbound(t, channel.id, channel.secret, inboundBody())).body.conversation_id as string;
      clock.advance(wait * 1000);
      await ok(t.client.post(`/api/conversations/${id}/reply`, { message_type: 'comment', body: 'Hi' }, { key }), 201);
    }
    const report = await ok(t.client.get(`/api/reports/response_times?since=${encodeURIComponent(since)}`, { key }));
    expect(report).to.deep.include({ conversations: 3 });
    expect(report.first_response).to.deep.equal({ calendar: { count: 3, median_seconds: 120, p90_seconds: 600 }, business: null });
    expect(report.resolution.calendar).to.deep.equal({ count: 0, median_seconds: null, p90_seconds: null });
    const later = await ok(t.client.get(`/api/reports/response_times?since=${encodeURIComponent(clock.now().toISOString())}`, { key }));
    expect(later.first_response.calendar.count).to.equal(0);
    const bad = await t.client.get('/api/reports/response_times?since=0000-01-01T00:00:00Z', { key });
    expect(bad.status, bad.text).to.equal(400);
  });
});
