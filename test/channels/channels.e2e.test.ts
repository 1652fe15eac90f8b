import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { addMember, mintKey, newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';
import { CHANNEL_SECRET, createChannel, inboundBody, postInbound } from '../support/channels.js';

describe('api channels', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('channels', { clock, env: { CHANNEL_SECRET_GRACE_SECONDS: '3600' } });
    owner = await newWorkspace(t);
  });
  after(async () => t.close());

  it('creates a channel whose answers, events and logs never carry the secret', async () => {
    const secret = 'my-bridge-secret-value-42';
    const r = await t.client.post(
      '/api/channels',
      { kind: 'api', name: 'WhatsApp bridge', default_team_id: null, webhook_secret: secret },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ type: 'channel', kind: 'api', name: 'WhatsApp bridge', source: 'whatsapp-bridge', webhook_url: null, receive_only: true });
    expect(r.text).to.not.include(secret);
    const get = await t.client.get(`/api/channels/${r.body.id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    const list = await t.client.get('/api/channels', { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(list.body.type).to.equal('list');
    expect(list.body.data.map((c: { id: string }) => c.id)).to.include(r.body.id);
    const put = await t.client.put(
      `/api/channels/${r.body.id}`,
      { webhook_url: 'https://203.0.113.10/replies' },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(put.status).to.equal(200);
    expect(put.body).to.include({ webhook_url: 'https://203.0.113.10/replies', receive_only: false });
    const events = await t.service.deps.store.readTenant(owner.workspaceId, 0, 1000);
    for (const text of [get.text, list.text, put.text, JSON.stringify(events), t.logs.join('')]) expect(text).to.not.include(secret);
    expect(events.map((e) => e.type)).to.include.members(['channel.created', 'channel.updated']);
  });

  it('refuses a webhook_url toward loopback or link-local addresses', async () => {
    const ch = await createChannel(t, owner);
    for (const url of ['http://127.0.0.1:8080/replies', 'http://169.254.169.254/latest/meta-data']) {
      const r = await t.client.put(`/api/channels/${ch.id}`, { webhook_url: url }, { cookie: owner.cookie, workspace: owner.workspaceId });
      expect(r.status, url).to.equal(400);
      expect(r.body.errors[0]).to.include({ code: 'webhook_url_forbidden', field: 'webhook_url' });
    }
    const get = await t.client.get(`/api/channels/${ch.id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(get.body.webhook_url).to.equal(null);
  });

  it('refuses a second api channel for the same source', async () => {
    await createChannel(t, owner, { source: 'telegram' });
    const again = await t.client.post(
      '/api/channels',
      { kind: 'api', name: 'Another', source: 'Telegram', default_team_id: null, webhook_secret: CHANNEL_SECRET },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(again.status).to.equal(409);
    expect(again.body.errors[0].code).to.equal('channel_source_taken');
  });

  it('refuses a webhook_secret of 15 or 257 characters with a field error and creates nothing', async () => {
    const before = await t.service.deps.store.head(owner.workspaceId);
    for (const secret of ['x'.repeat(15), 'x'.repeat(257)]) {
      const r = await t.client.post(
        '/api/channels',
        { kind: 'api', name: `len ${secret.length}`, default_team_id: null, webhook_secret: secret },
        { cookie: owner.cookie, workspace: owner.workspaceId },
      );
      expect(r.status).to.equal(400);
      expect(r.body.errors[0]).to.include({ code: 'invalid_field', field: 'webhook_secret' });
    }
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(before);
  });

  it('needs settings:write to create a channel', async () => {
    const agent = await addMember(t, owner, 'agent');
    const r = await t.client.post(
      '/api/channels',
      { kind: 'api', name: 'x', default_team_id: null, webhook_secret: CHANNEL_SECRET },
      { cookie: agent.cookie, workspace: agent.workspaceId },
    );
    expect(r.status).to.equal(403);
    expect(r.body.errors[0].code).to.equal('missing_scope');
  });

  it('keeps the old secret verifying through the grace period after rotation, then only the new one', async () => {
    const ch = await createChannel(t, owner);
    const rot = await t.client.post(`/api/channels/${ch.id}/rotate-secret`, undefined, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(rot.status).to.equal(200);
    const fresh = rot.body.webhook_secret as string;
    expect(fresh).to.be.a('string').with.length.greaterThan(16);
    const get = await t.client.get(`/api/channels/${ch.id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(get.text).to.not.include(fresh);
    expect((await postInbound(t, ch.id, ch.secret, inboundBody())).status).to.equal(201);
    expect((await postInbound(t, ch.id, fresh, inboundBody())).status).to.equal(201);
    clock.advance(3601_000);
    expect((await postInbound(t, ch.id, ch.secret, inboundBody())).status).to.equal(401);
    expect((await postInbound(t, ch.id, fresh, inboundBody())).status).to.equal(201);
  });

  it('is refused with a clear coded error on an instance without SERVICE_CHANNELS_SECRET', async () => {
    const bare = await startTestService('channels_unset', { env: { SERVICE_CHANNELS_SECRET: undefined } });
    try {
      const m = await newWorkspace(bare);
      const r = await bare.client.post(
        '/api/channels',
        { kind: 'api', name: 'x', default_team_id: null, webhook_secret: CHANNEL_SECRET },
        { cookie: m.cookie, workspace: m.workspaceId },
      );
      expect(r.status).to.equal(422);
      expect(r.body.errors[0].code).to.equal('channels_not_configured');
      expect(r.body.errors[0].message).to.include('SERVICE_CHANNELS_SECRET');
    } finally {
      await bare.close();
    }
  });

  it("answers 404 for another workspace's channel", async () => {
    const other = await newWorkspace(t, 'Other');
    const theirs = await createChannel(t, other);
    // Earlier tests moved the clock past the 15-minute window: sign in afresh to mint.
    owner.cookie = await signIn(t, owner.email, owner.password);
    const key = await mintKey(t, owner, ['settings:read', 'settings:write']);
    expect((await t.client.get(`/api/channels/${theirs.id}`, { key: key.secret })).status).to.equal(404);
    expect((await t.client.put(`/api/channels/${theirs.id}`, { name: 'mine now' }, { key: key.secret })).status).to.equal(404);
    expect((await t.client.post(`/api/channels/${theirs.id}/rotate-secret`, undefined, { key: key.secret })).status).to.equal(404);
  });
});
