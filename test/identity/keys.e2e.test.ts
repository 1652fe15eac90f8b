import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { addMember, mintKey, newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';

const KEY_RE = /^svc_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/;

describe('API keys', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('keys', { clock });
    owner = await newWorkspace(t);
  });
  after(async () => t.close());

  it('mints a key in the documented format, naming the workspace, and shows the secret only at creation', async () => {
    const r = await t.client.post('/api/keys', { name: 'CI', scopes: ['members:read'] }, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(r.status).to.equal(201);
    expect(r.body.secret).to.match(KEY_RE);
    expect(r.body.secret.slice(4, 36)).to.equal(owner.workspaceId.replace(/-/g, ''));
    expect(r.body).to.include({ type: 'api_key', name: 'CI', status: 'active' });
    expect(r.body.scopes).to.deep.equal(['members:read']);

    const list = await t.client.get('/api/keys', { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(list.status).to.equal(200);
    expect(list.body.data.map((k: { id: string }) => k.id)).to.include(r.body.id);
    expect(list.text).to.not.include(r.body.secret);
    expect(list.text).to.not.include(r.body.secret.slice(-43));

    const me = await t.client.get('/api/me', { key: r.body.secret });
    expect(me.status).to.equal(200);
    expect(me.body).to.include({ role: 'owner', via: 'api_key', api_key_id: r.body.id });
    expect(me.body.scopes).to.deep.equal(['members:read']);

    const events = await t.service.deps.store.readTenant(owner.workspaceId, 0, 1000);
    expect(JSON.stringify(events)).to.not.include(r.body.secret.slice(-43));
    expect(events.map((e) => e.type)).to.include('api_key.created');
    const feedKey = await mintKey(t, owner, ['events:read']);
    const feed = await t.client.get('/api/events?per_page=150', { key: feedKey.secret });
    expect(feed.status).to.equal(200);
    expect(feed.body.data.map((e: { type: string }) => e.type)).to.include('api_key.created');
    expect(feed.text).to.not.include(r.body.secret.slice(-43));
    expect(t.logs.join('')).to.not.include(r.body.secret.slice(-43));
  });

  it('refuses unknown scope names with a field error', async () => {
    const r = await t.client.post('/api/keys', { name: 'x', scopes: ['conversations:read', 'root'] }, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(r.status).to.equal(400);
    expect(r.body.errors[0]).to.include({ code: 'invalid_field', field: 'scopes.1' });
  });

  it('answers every unusable key with one identical 401', async () => {
    const { id, secret } = await mintKey(t, owner, ['members:read']);
    await t.client.delete(`/api/keys/${id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    const cases: Record<string, string | undefined> = {
      malformed: 'Bearer not-a-key',
      unknown: `Bearer svc_${owner.workspaceId.replace(/-/g, '')}_${'A'.repeat(43)}`,
      revoked: `Bearer ${secret}`,
      empty: 'Bearer ',
    };
    const bodies = new Set<string>();
    for (const auth of Object.values(cases)) {
      const r = await t.client.get('/api/members', { headers: { authorization: auth!, 'x-request-id': 'same-id' } });
      expect(r.status).to.equal(401);
      bodies.add(r.text);
    }
    expect(bodies.size).to.equal(1);
    expect(JSON.parse([...bodies][0]!).errors[0].code).to.equal('invalid_api_key');
  });

  it('refuses minting with a session older than 15 minutes and with a bearer key', async () => {
    const fresh = await signIn(t, owner.email, owner.password);
    clock.advance(16 * 60_000);
    const old = await t.client.post('/api/keys', { name: 'late', scopes: ['members:read'] }, { cookie: fresh, workspace: owner.workspaceId });
    expect(old.status).to.equal(403);
    expect(old.body.errors[0].code).to.equal('session_too_old');

    const newer = await signIn(t, owner.email, owner.password);
    const key = await mintKey(t, { cookie: newer, workspaceId: owner.workspaceId }, ['api_keys:create', 'members:read']);
    const viaKey = await t.client.post('/api/keys', { name: 'child', scopes: ['members:read'] }, { key: key.secret });
    expect(viaKey.status).to.equal(403);
    expect(viaKey.body.errors[0].code).to.equal('session_required');
    const rotateViaKey = await t.client.post(`/api/keys/${key.id}/rotate`, undefined, { key: key.secret });
    expect(rotateViaKey.status).to.equal(403);
    owner.cookie = newer;
  });

  it('rotation keeps the scopes, returns a new secret once and kills the old one at once', async () => {
    const key = await mintKey(t, owner, ['members:read', 'members:invite']);
    const r = await t.client.post(`/api/keys/${key.id}/rotate`, undefined, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(r.status).to.equal(200);
    expect(r.body.secret).to.match(KEY_RE).and.not.equal(key.secret);
    expect(r.body.scopes).to.deep.equal(['members:read', 'members:invite']);
    expect((await t.client.get('/api/members', { key: key.secret })).status).to.equal(401);
    expect((await t.client.get('/api/members', { key: r.body.secret })).status).to.equal(200);
    const events = await t.service.deps.store.readTenant(owner.workspaceId, 0, 1000);
    expect(JSON.stringify(events)).to.not.include(r.body.secret.slice(-43));
  });

  it("revoke_own cannot revoke another member's key; revoke_any can", async () => {
    const agent = await addMember(t, owner, 'agent');
    const agentKey = await mintKey(t, agent, ['conversations:read']);
    const admin = await addMember(t, owner, 'admin');
    const byAdmin = await t.client.delete(`/api/keys/${agentKey.id}`, { cookie: admin.cookie, workspace: admin.workspaceId });
    expect(byAdmin.status).to.equal(403);
    expect(byAdmin.body.errors[0].message).to.include('api_keys:revoke_any');
    const otherAgent = await addMember(t, owner, 'agent');
    const byAgent = await t.client.delete(`/api/keys/${agentKey.id}`, { cookie: otherAgent.cookie, workspace: otherAgent.workspaceId });
    expect(byAgent.status).to.equal(403);
    expect((await t.client.get('/api/me', { key: agentKey.secret })).status).to.equal(200);
    const byOwner = await t.client.delete(`/api/keys/${agentKey.id}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(byOwner.status).to.equal(200);
    expect(byOwner.body.status).to.equal('revoked');
    expect((await t.client.get('/api/me', { key: agentKey.secret })).status).to.equal(401);
    const own = await mintKey(t, agent, ['conversations:read']);
    const selfRevoke = await t.client.delete(`/api/keys/${own.id}`, { cookie: agent.cookie, workspace: agent.workspaceId });
    expect(selfRevoke.status).to.equal(200);
  });

  it("refuses a key with scopes beyond the minting member's role", async () => {
    const agent = await addMember(t, owner, 'agent');
    const r = await t.client.post('/api/keys', { name: 'x', scopes: ['settings:write'] }, { cookie: agent.cookie, workspace: agent.workspaceId });
    expect(r.status).to.equal(403);
    expect(r.body.errors[0].code).to.equal('scope_exceeds_role');
  });
});
