import { expect } from 'chai';
import { testEventStoreEnv } from '../support/event-store.js';
import { addMember, mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('roles, effective scopes and tenancy', function () {
  let t: TestService;
  let owner: Member;
  let other: Member;
  before(async () => {
    t = await startTestService('roles');
    owner = await newWorkspace(t, 'A');
    other = await newWorkspace(t, 'B');
  });
  after(async () => t.close());

  const invite = (key: string) => t.client.post('/api/members/invites', { email: `x${Math.random()}@example.com`, role: 'agent' }, { key });

  it("narrows an admin's key the moment the admin is demoted, and restores only the key's stored scopes", async () => {
    const admin = await addMember(t, owner, 'admin');
    const key = await mintKey(t, admin, ['members:read', 'members:invite', 'conversations:read']);
    expect((await invite(key.secret)).status).to.equal(201);

    const demote = await t.client.put(`/api/members/${admin.memberId}`, { role: 'viewer' }, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(demote.status).to.equal(200);
    const refused = await invite(key.secret);
    expect(refused.status).to.equal(403);
    expect(refused.body.errors[0]).to.include({ code: 'missing_scope' });
    expect(refused.body.errors[0].message).to.include('members:invite');
    expect((await t.client.get('/api/members', { key: key.secret })).status).to.equal(200);

    await t.client.put(`/api/members/${admin.memberId}`, { role: 'owner' }, { cookie: owner.cookie, workspace: owner.workspaceId });
    const me = await t.client.get('/api/me', { key: key.secret });
    expect(me.body.role).to.equal('owner');
    expect(me.body.scopes).to.have.members(['members:read', 'members:invite', 'conversations:read']);
    expect((await invite(key.secret)).status).to.equal(201);
  });

  it("stops a removed member's keys", async () => {
    const agent = await addMember(t, owner, 'agent');
    const key = await mintKey(t, agent, ['conversations:read']);
    expect((await t.client.get('/api/me', { key: key.secret })).status).to.equal(200);
    const del = await t.client.delete(`/api/members/${agent.memberId}`, { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(del.status).to.equal(200);
    expect((await t.client.get('/api/me', { key: key.secret })).status).to.equal(401);
  });

  it('keeps the last owner and lets only an owner make an owner', async () => {
    const solo = await newWorkspace(t, 'Solo');
    const demoteSelf = await t.client.put(`/api/members/${solo.memberId}`, { role: 'admin' }, { cookie: solo.cookie, workspace: solo.workspaceId });
    expect(demoteSelf.status).to.equal(409);
    expect(demoteSelf.body.errors[0].code).to.equal('last_owner');
    const removeSelf = await t.client.delete(`/api/members/${solo.memberId}`, { cookie: solo.cookie, workspace: solo.workspaceId });
    expect(removeSelf.status).to.equal(409);
    const admin = await addMember(t, solo, 'admin');
    const agent = await addMember(t, solo, 'agent');
    const promote = await t.client.put(`/api/members/${agent.memberId}`, { role: 'owner' }, { cookie: admin.cookie, workspace: admin.workspaceId });
    expect(promote.status).to.equal(403);
    expect(promote.body.errors[0].code).to.equal('owner_required');
    const inviteOwner = await t.client.post(
      '/api/members/invites',
      { email: 'boss@example.com', role: 'owner' },
      { cookie: admin.cookie, workspace: admin.workspaceId },
    );
    expect(inviteOwner.status).to.equal(403);
    const byOwner = await t.client.put(`/api/members/${agent.memberId}`, { role: 'admin' }, { cookie: solo.cookie, workspace: solo.workspaceId });
    expect(byOwner.status).to.equal(200);
    expect(byOwner.body.role).to.equal('admin');
  });

  it("gives a workspace A key 404 for workspace B's ids and no way to name B", async () => {
    const keyA = await mintKey(t, owner, ['members:read', 'members:invite', 'api_keys:revoke_own', 'api_keys:revoke_any']);
    const keyB = await mintKey(t, other, ['members:read']);
    const put = await t.client.put(`/api/members/${other.memberId}`, { role: 'viewer' }, { key: keyA.secret });
    expect(put.status).to.equal(404);
    const del = await t.client.delete(`/api/keys/${keyB.id}`, { key: keyA.secret });
    expect(del.status).to.equal(404);
    const named = await t.client.get(`/api/members?workspace=${other.workspaceId}`, { key: keyA.secret, workspace: other.workspaceId });
    expect(named.status).to.equal(200);
    const emails = named.body.data.map((m: { email: string }) => m.email);
    expect(emails).to.include(owner.email).and.not.include(other.email);
    const me = await t.client.get('/api/me', { key: keyA.secret, workspace: other.workspaceId });
    expect(me.body.workspace.id).to.equal(owner.workspaceId);
    expect((await t.client.get('/api/me', { key: keyB.secret })).status).to.equal(200);
  });

  it('answers a session naming a workspace it is not a member of as if it did not exist', async () => {
    const r = await t.client.get('/api/members', { cookie: owner.cookie, workspace: other.workspaceId });
    const missing = await t.client.get('/api/members', { cookie: owner.cookie, workspace: '00000000-0000-4000-8000-000000000000' });
    expect(r.status).to.equal(404);
    expect(missing.status).to.equal(404);
    expect(r.body.errors).to.deep.equal(missing.body.errors);
  });
});

describe('cached principals across processes', function () {
  it('narrows a key on a second service instance once the demotion is announced (NOTIFY)', async () => {
    const { startService } = await import('../../src/service.js');
    const { loadConfig } = await import('../../src/config.js');
    const { createLogger } = await import('../../src/platform/logger.js');
    const { Client } = await import('../support/http.js');
    const { eventually } = await import('../support/events.js');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const t = await startTestService('roles_two_instances');
    const dataDir = await mkdtemp('/tmp/cs-second-');
    // The run's store (TEST_EVENT_STORE), as the first instance has it: a second instance without it kept its log in
    // the Postgres events table of a database whose service reads EventStoreDB, and its invite answered 409.
    const config = loadConfig({
      DATABASE_URL: t.testDb.url,
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WORKERS: 'off',
      ...testEventStoreEnv(t.testDb.url),
    });
    const { ManualClock } = await import('../../src/platform/clock.js');
    // A clock that stands still: what it caches never expires, so only the announcement can narrow the key.
    const second = await startService({ config, clock: new ManualClock(new Date()), log: createLogger('silent') });
    try {
      const owner = await newWorkspace(t);
      const admin = await addMember(t, owner, 'admin');
      const key = await mintKey(t, admin, ['members:read', 'members:invite']);
      const other = new Client(second.url);
      const invite = () => other.post('/api/members/invites', { email: `x${Math.random()}@example.com`, role: 'agent' }, { key: key.secret });
      expect((await invite()).status).to.equal(201); // now cached on the second instance
      const demote = await t.client.put(`/api/members/${admin.memberId}`, { role: 'viewer' }, { cookie: owner.cookie, workspace: owner.workspaceId });
      expect(demote.status).to.equal(200);
      const refused = await eventually(invite, (r) => r.status === 403, 60_000);
      expect(refused.body.errors[0].code).to.equal('missing_scope');
    } finally {
      await second.close();
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
