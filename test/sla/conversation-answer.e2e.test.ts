// A conversation's answer carries its `sla` and `statistics` (issue 34, items 4 and 5),
// and an SLA policy's match may hold a filter-language query (item 4).
import { expect } from 'chai';
import { createChannel, inboundBody, postInbound } from '../support/channels.js';
import { mintKey, newWorkspace, startTestService, type TestService } from '../support/service.js';
import { ManualClock } from '../../src/platform/clock.js';

type Reply = { status: number; text: string; body: any };
const SCOPES = ['settings:read', 'settings:write', 'conversations:read', 'conversations:write', 'events:read'];

async function ok(r: Promise<Reply>, status = 200) {
  const a = await r;
  expect(a.status, a.text).to.equal(status);
  return a.body;
}

const slaWorker = (t: TestService) => t.service.workers.find((w) => w.name === 'sla') as unknown as { tick(): Promise<number> };

describe("SLA and statistics on the conversation's answer", function () {
  this.timeout(180_000);
  const clock = new ManualClock('2026-03-02T10:00:00.000Z');
  let t: TestService;
  let key: string;
  let channel: { id: string; secret: string };

  before(async () => {
    t = await startTestService('sla-answer', { clock });
    const owner = await newWorkspace(t);
    key = (await mintKey(t, owner, SCOPES)).secret;
    channel = await createChannel(t, owner);
  });
  after(async () => t?.close());

  it('GET one, the list, a search and the answers of writes show the same sla and statistics as their sub-routes', async () => {
    // Business hours (Monday 10:00 UTC is inside them): business seconds on the answers too.
    const monday = [{ day: 'monday', start: '09:00', end: '17:00' }];
    await ok(t.client.put('/api/settings/business_hours', { time_zone: 'UTC', intervals: monday, holidays: [] }, { key }));
    const policy = await ok(
      t.client.post('/api/sla_policies', { name: 'Answer', first_response_target_seconds: 600, resolution_target_seconds: 3600 }, { key }),
      201,
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await postInbound(t, channel.id, channel.secret, inboundBody())).body.conversation_id as string);
    await slaWorker(t).tick();
    clock.advance(90_000);
    const reply = await ok(t.client.post(`/api/conversations/${ids[0]}/reply`, { message_type: 'comment', body: 'On it' }, { key }), 201);
    await slaWorker(t).tick();

    const sub = async (id: string) => ({
      sla: (await ok(t.client.get(`/api/conversations/${id}/sla`, { key }))).sla,
      statistics: (await ok(t.client.get(`/api/conversations/${id}/statistics`, { key }))).statistics,
    });
    const first = await sub(ids[0]!);
    expect(first.sla).to.include({ policy_id: policy.id, first_response_due_at: null, resolution_due_at: '2026-03-02T11:00:00.000Z' });
    expect(first.sla.met).to.have.length(1);
    expect(first.statistics).to.include({ first_response_seconds: 90, first_response_business_seconds: 90, teammate_replies: 1, customer_replies: 1 });

    // The reply's answer was read in its transaction: the statistics it made, the SLA as it stood before the worker's pass.
    expect(reply.conversation.statistics).to.deep.equal(first.statistics);
    expect(reply.conversation.sla).to.include({ policy_id: policy.id, first_response_due_at: '2026-03-02T10:10:00.000Z' });

    const one = await ok(t.client.get(`/api/conversations/${ids[0]}`, { key }));
    expect(one).to.deep.include(first);

    const list = await ok(t.client.get('/api/conversations?per_page=10&sort=created_at&order=asc', { key }));
    expect(list.data.map((c: any) => c.id)).to.include.members(ids);
    for (const id of ids) {
      const shown = list.data.find((c: any) => c.id === id);
      expect({ sla: shown.sla, statistics: shown.statistics }, id).to.deep.equal(await sub(id));
    }
    const others = list.data.filter((c: any) => c.id !== ids[0]);
    for (const c of others) expect(c.sla).to.include({ policy_id: policy.id, first_response_due_at: '2026-03-02T10:10:00.000Z' });

    const found = await ok(t.client.post('/api/conversations/search', { query: { field: 'state', operator: '=', value: 'open' }, per_page: 10 }, { key }));
    expect(found.data.find((c: any) => c.id === ids[0])).to.deep.include(first);

    const closed = await ok(t.client.post(`/api/conversations/${ids[1]}/parts`, { message_type: 'close' }, { key }), 201);
    expect(closed.conversation.statistics).to.include({ resolution_seconds: 90, reopens: 0 });
    const attrs = await ok(t.client.put(`/api/conversations/${ids[2]}`, { custom_attributes: {} }, { key }));
    expect(attrs).to.deep.include(await sub(ids[2]!));
  });

  it("reads a page's sla and statistics in one statement, however many conversations it holds (no N+1)", async () => {
    for (let i = 0; i < 15; i++) await postInbound(t, channel.id, channel.secret, inboundBody());
    const seen: string[] = [];
    // The SLA worker may load a conversation meanwhile (its own statement: the conversation as a subquery joined to
    // its statistics row, after the posts above); that is not the page's read.
    const slaWorkerLoad = /from \(select "tenant_id", "id", "state"[^)]*\) as "c" inner join "conversation_statistics"/;
    const spy = (q: { sql: string }) => {
      if (q.sql.includes('conversation_statistics') && !slaWorkerLoad.test(q.sql)) seen.push(q.sql);
    };
    const db = t.service.deps.db;
    db.on('query', spy);
    try {
      const page = await ok(t.client.get('/api/conversations?per_page=15', { key }));
      expect(page.data).to.have.length(15);
      for (const c of page.data) expect(c.statistics, c.id).to.be.an('object');
    } finally {
      db.off('query', spy);
    }
    expect(seen, seen.join('\n')).to.have.length(1);
  });

  it('a conversation no policy applies to shows sla null and its statistics', async () => {
    const owner = await newWorkspace(t);
    const k = (await mintKey(t, owner, SCOPES)).secret;
    const ch = await createChannel(t, owner);
    const created = await ok(
      t.client.post('/api/conversations', { channel_id: ch.id, body: 'Hello', contact: { email: 'no-policy@example.com' } }, { key: k }),
      201,
    );
    expect(created.sla).to.equal(null);
    expect(created.statistics).to.include({ first_response_at: null, teammate_replies: 1, customer_replies: 0, reopens: 0 });
    // as it was: not kept for the past
    const past = await ok(
      t.client.get(
        `/api/conversations/${created.id}?as_of_seq=${(await ok(t.client.get(`/api/conversations/${created.id}/history`, { key: k }))).data[0].seq}`,
        { key: k },
      ),
    );
    expect(past).to.include({ sla: null, statistics: null });
  });
});

describe('SLA policies: match.query, a filter-language tree', function () {
  this.timeout(180_000);
  const clock = new ManualClock('2026-03-02T10:00:00.000Z');
  let t: TestService;

  before(async () => {
    t = await startTestService('sla-query', { clock });
  });
  after(async () => t?.close());

  it('applies only to the conversations its query matches, with every other given key', async () => {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, SCOPES)).secret;
    const channel = await createChannel(t, owner);
    const vip = await ok(
      t.client.post(
        '/api/sla_policies',
        {
          name: 'Refunds, urgent',
          match: { priority: ['urgent'], query: { field: 'subject', operator: '~', value: 'refund' } },
          first_response_target_seconds: 60,
        },
        { key },
      ),
      201,
    );
    expect(vip.match).to.deep.equal({ priority: ['urgent'], query: { field: 'subject', operator: '~', value: 'refund' } });
    const rest = await ok(t.client.post('/api/sla_policies', { name: 'Everything else', first_response_target_seconds: 3600 }, { key }), 201);
    const start = async (subject: string, priority: string) =>
      (
        await ok(
          t.client.post(
            '/api/conversations',
            { channel_id: channel.id, body: 'Hello', subject, priority, contact: { email: `c-${Math.random()}@example.com` } },
            { key },
          ),
          201,
        )
      ).id as string;
    const both = await start('Refund please', 'urgent');
    const notUrgent = await start('Refund please', 'normal');
    const otherSubject = await start('Password reset', 'urgent');
    await slaWorker(t).tick();
    const policyOf = async (id: string) => (await ok(t.client.get(`/api/conversations/${id}`, { key }))).sla?.policy_id;
    expect(await policyOf(both)).to.equal(vip.id);
    expect(await policyOf(notUrgent)).to.equal(rest.id);
    expect(await policyOf(otherSubject)).to.equal(rest.id);
  });

  it('a query the filter language refuses is a coded 400 naming its path, at create and at update', async () => {
    const owner = await newWorkspace(t);
    const key = (await mintKey(t, owner, SCOPES)).secret;
    const bad = { name: 'Bad', match: { query: { field: 'no_such_field', operator: '=', value: 'x' } }, first_response_target_seconds: 60 };
    const r = await t.client.post('/api/sla_policies', bad, { key });
    expect(r.status, r.text).to.equal(400);
    expect(r.body.errors[0]).to.include({ code: 'invalid_query' });
    expect(r.body.errors[0].field).to.match(/^match\.query/);
    const good = await ok(t.client.post('/api/sla_policies', { name: 'Good', first_response_target_seconds: 60 }, { key }), 201);
    const u = await t.client.put(`/api/sla_policies/${good.id}`, { ...bad, match: { query: { operator: 'XOR', value: [] } } }, { key });
    expect(u.status, u.text).to.equal(400);
    expect(u.body.errors[0]).to.include({ code: 'invalid_query' });
  });
});
