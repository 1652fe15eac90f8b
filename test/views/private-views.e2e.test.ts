// A private view is its member's own: the views API answers 404 to anyone else,
// and its name and query must not reach another member through the change feed
// (viewers hold events:read) or be pushed to webhooks. Its events stay in the log
// (the read model is folded from them) and are left out of both.
import { expect } from 'chai';
import type { DeliveryWorker } from '../../src/dispatch/delivery-worker.js';
import { eventually } from '../support/events.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { Receiver } from '../webhooks/receiver.js';

const SECRET_NAME = 'Accounts I am about to fire';
const SECRET_VALUE = 'confidential-tag-7f3a';

describe('private views stay out of the feed and webhooks', function () {
  let t: TestService;
  let owner: Member;
  let agent: Member;
  let viewer: Member;
  let receiver: Receiver;
  let agentKey: string;
  let ownerKey: string;
  const query = { field: 'subject', operator: '~', value: SECRET_VALUE };
  const feedAs = async (m: Member) => {
    const r = await t.client.get('/api/events?after_seq=0&per_page=150', { cookie: m.cookie, workspace: m.workspaceId });
    expect(r.status, r.text).to.equal(200);
    return r;
  };
  const worker = () => t.service.workers.find((w) => w.name === 'webhook-delivery-worker') as DeliveryWorker;
  /** Waits until the receiver got this aggregate's event and the worker settled: whatever was due before it had its chance. */
  const deliveredUpTo = async (aggregateId: string) => {
    await eventually(
      () => receiver.bodies().some((b) => b.aggregate_id === aggregateId),
      (seen) => seen,
    );
    await worker().settled();
  };

  before(async () => {
    t = await startTestService('private_views', { env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    owner = await newWorkspace(t);
    agent = await addMember(t, owner, 'agent');
    viewer = await addMember(t, owner, 'viewer');
    ownerKey = (await mintKey(t, owner, ['conversations:read', 'settings:write', 'settings:read', 'events:read'])).secret;
    agentKey = (await mintKey(t, agent, ['conversations:read'])).secret;
    receiver = await new Receiver().start();
    const ep = await t.client.post('/api/webhooks', { url: receiver.url, event_names: [], description: 'everything' }, { key: ownerKey });
    expect(ep.status, ep.text).to.equal(201);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it("a viewer can't read another member's private view through the feed, and no webhook receives it", async () => {
    const priv = await t.client.post('/api/views', { name: SECRET_NAME, query }, { key: agentKey });
    expect(priv.status, priv.text).to.equal(201);
    const renamed = await t.client.put(`/api/views/${priv.body.id}`, { name: `${SECRET_NAME} (2)` }, { key: agentKey });
    expect(renamed.status, renamed.text).to.equal(200);
    // The views API keeps it from others (404), as before.
    expect((await t.client.get(`/api/views/${priv.body.id}`, { cookie: viewer.cookie, workspace: viewer.workspaceId })).status).to.equal(404);
    // A workspace view after it: once its delivery is in, everything before it had its chance to be sent.
    const shared = await t.client.post(
      '/api/views',
      { name: 'Team view', query: { field: 'state', operator: '=', value: 'open' }, visibility: 'workspace' },
      { key: ownerKey },
    );
    expect(shared.status, shared.text).to.equal(201);
    const gone = await t.client.delete(`/api/views/${priv.body.id}`, { key: agentKey });
    expect(gone.status).to.equal(200);
    const after = await t.client.post(
      '/api/views',
      { name: 'Team view 2', query: { field: 'state', operator: '=', value: 'closed' }, visibility: 'workspace' },
      { key: ownerKey },
    );

    for (const m of [viewer, owner, agent]) {
      const feed = await feedAs(m);
      expect(feed.text, 'the feed').to.not.include(SECRET_VALUE);
      expect(feed.text, 'the feed').to.not.include(SECRET_NAME);
      expect(feed.body.data.filter((e: { aggregate_id: string }) => e.aggregate_id === priv.body.id)).to.deep.equal([]);
      expect(feed.body.data.some((e: { aggregate_id: string }) => e.aggregate_id === shared.body.id)).to.equal(true);
    }
    await deliveredUpTo(after.body.id);
    const bodies = receiver.received.map((r) => r.raw.toString('utf8'));
    expect(bodies.some((b) => b.includes(shared.body.id))).to.equal(true);
    for (const b of bodies) {
      expect(b).to.not.include(SECRET_VALUE);
      expect(b).to.not.include(priv.body.id);
    }
    // The log still has them: the read model is folded from it (a rebuild keeps private views).
    const log = await t.service.deps.store.readTenant(owner.workspaceId, 0, 10_000);
    expect(log.filter((e) => e.aggregate_id === priv.body.id).map((e) => e.type)).to.deep.equal(['view.created', 'view.updated', 'view.deleted']);
  });

  it('a private view made a workspace view appears whole; a workspace view made private leaves without its new name', async () => {
    const v = await t.client.post('/api/views', { name: `${SECRET_NAME} draft`, query }, { key: ownerKey });
    const published = await t.client.put(`/api/views/${v.body.id}`, { visibility: 'workspace' }, { key: ownerKey });
    expect(published.status, published.text).to.equal(200);
    let feed = (await feedAs(viewer)).body.data.filter((e: { aggregate_id: string }) => e.aggregate_id === v.body.id);
    expect(feed.map((e: { type: string }) => e.type)).to.deep.equal(['view.updated']);
    expect(feed[0].payload).to.deep.include({ visibility: 'workspace', name: `${SECRET_NAME} draft`, query });

    const hidden = await t.client.put(`/api/views/${v.body.id}`, { visibility: 'private', name: 'Something else entirely' }, { key: ownerKey });
    expect(hidden.status, hidden.text).to.equal(200);
    const after = await feedAs(viewer);
    expect(after.text).to.not.include('Something else entirely');
    feed = after.body.data.filter((e: { aggregate_id: string }) => e.aggregate_id === v.body.id);
    expect(feed.map((e: { payload: unknown }) => e.payload)).to.deep.equal([
      { id: v.body.id, private: false, name: `${SECRET_NAME} draft`, query, sort: 'updated_at', order: 'desc', visibility: 'workspace' },
      { id: v.body.id, private: false, visibility: 'private' },
    ]);
  });

  it("an owner deleting an agent's private view, and a removal taking a member's, tell the feed and webhooks nothing of them", async () => {
    // A name of their own: an earlier test published a view under SECRET_NAME.
    const QUIET = 'Quiet view 9c1d';
    const doomed = await t.client.post('/api/views', { name: `${QUIET} (agent)`, query }, { key: agentKey });
    expect(doomed.status, doomed.text).to.equal(201);
    const leaving = await addMember(t, owner, 'agent');
    const taken = await t.client.post('/api/views', { name: `${QUIET} (leaving)`, query }, { cookie: leaving.cookie, workspace: leaving.workspaceId });
    expect(taken.status, taken.text).to.equal(201);
    // The owner deletes one without reading it; the other goes with its member.
    expect((await t.client.delete(`/api/views/${doomed.body.id}`, { key: ownerKey })).status).to.equal(200);
    expect((await t.client.delete(`/api/members/${leaving.memberId}`, { cookie: owner.cookie, workspace: owner.workspaceId })).status).to.equal(200);
    expect((await t.client.get(`/api/views/${doomed.body.id}`, { key: agentKey })).status).to.equal(404);
    const marker = await t.client.post(
      '/api/views',
      { name: 'Marker', query: { field: 'state', operator: '=', value: 'open' }, visibility: 'workspace' },
      { key: ownerKey },
    );
    expect(marker.status, marker.text).to.equal(201);

    for (const m of [viewer, owner, agent]) {
      const feed = await feedAs(m);
      expect(feed.text, 'the feed').to.not.include(QUIET);
      for (const v of [doomed.body.id, taken.body.id]) expect(feed.text, 'the feed').to.not.include(v);
      expect(feed.body.data.some((e: { type: string; aggregate_id: string }) => e.type === 'member.removed' && e.aggregate_id === leaving.memberId)).to.equal(
        true,
      );
    }
    await deliveredUpTo(marker.body.id);
    for (const b of receiver.received.map((r) => r.raw.toString('utf8'))) {
      expect(b).to.not.include(QUIET);
      for (const v of [doomed.body.id, taken.body.id]) expect(b).to.not.include(v);
    }
  });

  it('events of private views appended before they were marked stay out too', async () => {
    const v = await t.client.post('/api/views', { name: 'Old private', query }, { key: agentKey });
    // A view.updated as earlier versions appended it: no `private`, only what changed.
    await t.service.deps.shell.execute(
      { tenantId: owner.workspaceId, now: new Date(), actor: { type: 'system', id: 'test' } },
      {
        name: 'LegacyViewUpdate',
        load: async () => null,
        decide: () => [{ type: 'view.updated', aggregate_type: 'view', aggregate_id: v.body.id, payload: { id: v.body.id, name: `${SECRET_NAME} legacy` } }],
      },
    );
    expect((await t.client.get(`/api/views/${v.body.id}`, { key: agentKey })).body.name).to.equal(`${SECRET_NAME} legacy`);
    const feed = await feedAs(viewer);
    expect(feed.text).to.not.include(`${SECRET_NAME} legacy`);
    expect(feed.body.data.filter((e: { aggregate_id: string }) => e.aggregate_id === v.body.id)).to.deep.equal([]);
  });
});
