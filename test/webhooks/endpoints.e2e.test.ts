import { expect } from 'chai';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { toEnvelope } from '../../src/eventstore/envelope.js';
import { ManualClock } from '../../src/platform/clock.js';
import { eventually } from '../support/events.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { Receiver } from './receiver.js';

const SECRET_RE = /^whsec_[A-Za-z0-9_-]{43}$/;

/** The receiver guide's check: HMAC over the raw bytes, equal lengths, constant-time compare. */
function verifies(secret: string, raw: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

describe('webhook endpoints and deliveries', function () {
  let t: TestService;
  let owner: Member;
  const receivers: Receiver[] = [];
  const as = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });
  const receiver = async (...a: ConstructorParameters<typeof Receiver>) => {
    const r = await new Receiver(...a).start();
    receivers.push(r);
    return r;
  };
  const invite = async () => {
    const r = await t.client.post('/api/members/invites', { email: `p${Math.random()}@example.com`, role: 'agent' }, as());
    expect(r.status, r.text).to.equal(201);
    return r.body.id as string;
  };
  const eventOf = async (type: string, aggregateId: string) => {
    const events = await t.service.deps.store.readTenant(owner.workspaceId, 0, 10_000);
    return events.find((e) => e.type === type && e.aggregate_id === aggregateId)!;
  };

  before(async () => {
    t = await startTestService('webhooks', { clock: new ManualClock(new Date()), env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
  });
  after(async () => {
    await t.close();
    for (const r of receivers) await r.close();
  });

  it('posts a matching event, signed over the exact bytes sent, as the spec 2.4 envelope; not to a non-matching or disabled endpoint', async () => {
    const matching = await receiver();
    const all = await receiver();
    const other = await receiver();
    const disabled = await receiver();
    const mk = (url: string, event_names: string[], enabled = true) => t.client.post('/api/webhooks', { url, event_names, description: 'test', enabled }, as());
    const m = await mk(matching.url, ['member.invited']);
    expect(m.status, m.text).to.equal(201);
    expect(m.body).to.include({ type: 'webhook_endpoint', url: matching.url, enabled: true, description: 'test' });
    expect(m.body.secret).to.match(SECRET_RE);
    const a = await mk(all.url, []);
    const o = await mk(other.url, ['conversation_part.created']);
    const d = await mk(disabled.url, ['member.invited'], false);
    expect([o.status, d.status]).to.deep.equal([201, 201]);

    const inviteId = await invite();
    const [got] = await matching.waitFor(1);
    const event = await eventOf('member.invited', inviteId);
    expect(got!.raw.toString('utf8')).to.equal(JSON.stringify(toEnvelope(event)));
    expect(JSON.parse(got!.raw.toString('utf8'))).to.have.all.keys('tenant_id', 'seq', 'type', 'aggregate_type', 'aggregate_id', 'payload', 'created_at');
    expect(got!.headers['content-type']).to.equal('application/json');
    expect(verifies(m.body.secret, got!.raw, got!.headers['x-service-signature'])).to.equal(true);
    expect(verifies(a.body.secret, got!.raw, got!.headers['x-service-signature'])).to.equal(false);

    // The catch-all endpoint gets it too; give the others every chance, then check they got nothing.
    // It also gets the endpoints created after it (in whatever order deliveries land): wait for this event's seq.
    await eventually(
      () => all.bodies().map((b) => b.seq),
      (seqs) => seqs.includes(event.seq),
    );
    expect(verifies(a.body.secret, all.received[0]!.raw, all.received[0]!.headers['x-service-signature'])).to.equal(true);
    const log = await eventually(
      () => t.client.get(`/api/webhooks/${m.body.id}/deliveries`, as()),
      (r) => r.body.data[0]?.state === 'delivered',
    );
    expect(log.body.data[0]).to.include({
      type: 'webhook_delivery',
      seq: event.seq,
      event_type: 'member.invited',
      state: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
    });
    // Routing is one transaction per batch: once the matching endpoint has its delivery, the others' would exist too.
    for (const ep of [o, d]) expect((await t.client.get(`/api/webhooks/${ep.body.id}/deliveries`, as())).body.data).to.deep.equal([]);
    expect(other.received).to.have.length(0);
    expect(disabled.received).to.have.length(0);
  });

  it('delivers only events appended while the endpoint existed and was enabled', async () => {
    const r = await receiver();
    await invite(); // before the endpoint exists
    const ep = await t.client.post('/api/webhooks', { url: r.url, event_names: ['member.invited'], description: '' }, as());
    const during = await invite();
    await r.waitFor(1);
    expect((await t.client.put(`/api/webhooks/${ep.body.id}`, { enabled: false }, as())).status).to.equal(200);
    await invite(); // while disabled
    expect((await t.client.put(`/api/webhooks/${ep.body.id}`, { enabled: true }, as())).status).to.equal(200);
    const later = await invite();
    await r.waitFor(2);
    expect(r.bodies().map((b) => b.aggregate_id)).to.have.members([during, later]);
    // `later` was routed after the disabled-time invite, so a delivery for that one would be listed by now.
    const log = await t.client.get(`/api/webhooks/${ep.body.id}/deliveries`, as());
    expect(log.body.data).to.have.length(2);
    expect(r.received).to.have.length(2);
  });

  it('republishing records a second delivery and posts the same seq and bytes again', async () => {
    const r = await receiver();
    const ep = await t.client.post('/api/webhooks', { url: r.url, event_names: ['member.invited'], description: '' }, as());
    await invite();
    await r.waitFor(1);
    const first = await eventually(
      () => t.client.get(`/api/webhooks/${ep.body.id}/deliveries`, as()),
      (x) => x.body.data[0]?.state === 'delivered',
    );
    const original = first.body.data[0];
    const again = await t.client.post(`/api/webhooks/${ep.body.id}/deliveries/${original.id}/retry`, undefined, as());
    expect(again.status, again.text).to.equal(201);
    expect(again.body).to.include({ seq: original.seq, state: 'pending', republished: true });
    expect(again.body.id).to.not.equal(original.id);
    await r.waitFor(2);
    expect(r.received[1]!.raw.equals(r.received[0]!.raw)).to.equal(true);
    expect(r.received[1]!.headers['x-service-signature']).to.equal(r.received[0]!.headers['x-service-signature']);
    const log = await eventually(
      () => t.client.get(`/api/webhooks/${ep.body.id}/deliveries`, as()),
      (x) => x.body.data.length === 2 && x.body.data.every((d: { state: string }) => d.state === 'delivered'),
    );
    expect(log.body.data.map((d: { seq: number }) => d.seq)).to.deep.equal([original.seq, original.seq]);
    expect(log.body.data[0].id).to.equal(again.body.id); // newest first
  });

  it('lists, reads, updates and deletes endpoints, never showing the secret after creation', async () => {
    const r = await receiver();
    const created = await t.client.post('/api/webhooks', { url: r.url, event_names: ['member.invited'], description: 'ops' }, as());
    const { id, secret } = created.body;
    const tail = secret.slice(6);
    const one = await t.client.get(`/api/webhooks/${id}`, as());
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.include({ type: 'webhook_endpoint', id, url: r.url, event_names: ['member.invited'], description: 'ops', enabled: true });
    const put = await t.client.put(`/api/webhooks/${id}`, { event_names: [], description: 'all of it' }, as());
    expect(put.status).to.equal(200);
    expect(put.body).to.deep.include({ event_names: [], description: 'all of it' });
    const refused = await t.client.put(`/api/webhooks/${id}`, { secret: 'whsec_mine' }, as());
    expect(refused.status).to.equal(400);
    expect(refused.body.errors[0]).to.include({ code: 'secret_immutable', field: 'secret' });

    const page1 = await t.client.get('/api/webhooks?per_page=2', as());
    expect(page1.status).to.equal(200);
    expect(page1.body).to.include({ type: 'list' });
    expect(page1.body.data).to.have.length(2);
    const seen = [...page1.body.data];
    let next = page1.body.pages.next;
    while (next) {
      const p = await t.client.get(`/api/webhooks?per_page=2&starting_after=${encodeURIComponent(next.starting_after)}`, as());
      seen.push(...p.body.data);
      next = p.body.pages.next;
    }
    expect(seen.map((e) => e.id)).to.include(id);
    expect(new Set(seen.map((e) => e.id)).size).to.equal(seen.length);
    for (const e of seen) expect(e).to.not.have.property('secret');

    const answers = [one.text, put.text, page1.text, (await t.client.get(`/api/webhooks/${id}/deliveries`, as())).text];
    for (const text of answers) expect(text).to.not.include(tail);
    const events = await t.service.deps.store.readTenant(owner.workspaceId, 0, 10_000);
    expect(events.map((e) => e.type)).to.include.members(['webhook_endpoint.created', 'webhook_endpoint.updated']);
    expect(JSON.stringify(events)).to.not.include(tail);
    expect(t.logs.join('')).to.not.include(tail);
    const rows = await t.service.deps.db('webhook_endpoint_secrets').where({ endpoint_id: id });
    expect(rows).to.have.length(1);
    expect(rows[0].sealed).to.not.include(tail);

    await invite();
    await r.waitFor(1);
    const del = await t.client.delete(`/api/webhooks/${id}`, as());
    expect(del.status).to.equal(200);
    expect((await t.client.get(`/api/webhooks/${id}`, as())).status).to.equal(404);
    expect((await t.client.get(`/api/webhooks/${id}/deliveries`, as())).status).to.equal(404);
    expect(await t.service.deps.db('webhook_deliveries').where({ target_id: id })).to.have.length(0);
    expect(await t.service.deps.db('webhook_endpoint_secrets').where({ endpoint_id: id })).to.have.length(0);
    expect((await eventOf('webhook_endpoint.deleted', id)).payload).to.deep.equal({ endpoint_id: id });
  });

  it("answers 404 for malformed ids and another workspace's endpoints, and needs settings scopes", async () => {
    const r = await receiver();
    const mine = await t.client.post('/api/webhooks', { url: r.url, event_names: [], description: '' }, as());
    const stranger = await newWorkspace(t, 'Other');
    const theirs = { cookie: stranger.cookie, workspace: stranger.workspaceId };
    for (const path of [`/api/webhooks/${mine.body.id}`, `/api/webhooks/${mine.body.id}/deliveries`, '/api/webhooks/not-a-uuid']) {
      expect((await t.client.get(path, theirs)).status, path).to.equal(404);
    }
    expect((await t.client.put(`/api/webhooks/${mine.body.id}`, { enabled: false }, theirs)).status).to.equal(404);
    expect((await t.client.delete(`/api/webhooks/${mine.body.id}`, theirs)).status).to.equal(404);
    expect((await t.client.get('/api/webhooks', theirs)).body.data).to.deep.equal([]);
    expect((await t.client.get(`/api/webhooks/${mine.body.id}`, as())).body.enabled).to.equal(true);

    const agent = await addMember(t, owner, 'agent');
    const byAgent = await t.client.post('/api/webhooks', { url: r.url, event_names: [] }, { cookie: agent.cookie, workspace: agent.workspaceId });
    expect(byAgent.status).to.equal(403);
    expect(byAgent.body.errors[0].message).to.include('settings:write');
    const narrow = await mintKey(t, owner, ['members:read']);
    for (const path of ['/api/webhooks', `/api/webhooks/${mine.body.id}`, `/api/webhooks/${mine.body.id}/deliveries`]) {
      const denied = await t.client.get(path, { key: narrow.secret });
      expect(denied.status, path).to.equal(403);
      expect(denied.body.errors[0].message).to.include('settings:read');
    }
  });

  it('refuses URLs that are not http(s) with a field error', async () => {
    for (const url of ['ftp://127.0.0.1/x', 'not a url', 'http://user:pw@127.0.0.1/x']) {
      const r = await t.client.post('/api/webhooks', { url, event_names: [] }, as());
      expect(r.status, url).to.equal(400);
      expect(r.body.errors[0]).to.include({ code: 'webhook_url_invalid', field: 'url' });
    }
    const meta = await t.client.post('/api/webhooks', { url: 'http://169.254.169.254/latest/meta-data', event_names: [] }, as());
    expect(meta.status).to.equal(400);
    expect(meta.body.errors[0]).to.include({ code: 'webhook_url_forbidden', field: 'url' });
  });

  it('refuses event_names the service never emits (docs/events.md), on create and update, naming the entry', async () => {
    const before = (await t.client.get('/api/webhooks?per_page=150', as())).body.data.length;
    const typo = await t.client.post(
      '/api/webhooks',
      { url: 'http://127.0.0.1:9/hook', event_names: ['conversation_part.created', 'conversation.part_created'] },
      as(),
    );
    expect(typo.status, typo.text).to.equal(400);
    expect(typo.body.errors[0]).to.include({ code: 'invalid_field', field: 'event_names.1' });
    expect((await t.client.get('/api/webhooks?per_page=150', as())).body.data.length, 'nothing was created').to.equal(before);
    const ok = await t.client.post('/api/webhooks', { url: 'http://127.0.0.1:9/hook', event_names: ['conversation_part.created'] }, as());
    expect(ok.status, ok.text).to.equal(201);
    const upd = await t.client.put(`/api/webhooks/${ok.body.id}`, { event_names: ['member.exploded'] }, as());
    expect(upd.status).to.equal(400);
    expect(upd.body.errors[0]).to.include({ field: 'event_names.0' });
  });
});

describe('webhook destinations without an allowlist', function () {
  let t: TestService;
  let owner: Member;
  before(async () => {
    t = await startTestService('webhooks_noallow', { env: { WEBHOOK_ALLOWLIST: '' } });
    owner = await newWorkspace(t);
  });
  after(async () => t.close());

  it('refuses loopback, link-local (cloud metadata), private, CGNAT and IPv6 local destinations', async () => {
    const urls = [
      'http://127.0.0.1:8080/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://localhost/hook',
      'http://10.0.0.5/hook',
      'http://192.168.1.1/hook',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://2130706433/hook',
    ];
    for (const url of urls) {
      const r = await t.client.post('/api/webhooks', { url, event_names: [] }, { cookie: owner.cookie, workspace: owner.workspaceId });
      expect(r.status, url).to.equal(400);
      expect(r.body.errors[0], url).to.include({ code: 'webhook_url_forbidden', field: 'url' });
    }
    expect((await t.client.get('/api/webhooks', { cookie: owner.cookie, workspace: owner.workspaceId })).body.data).to.deep.equal([]);
  });
});
