import { expect } from 'chai';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';

describe('sessions', function () {
  let t: TestService;
  let owner: Member;
  before(async () => {
    t = await startTestService('sessions');
    owner = await newWorkspace(t);
  });
  after(async () => t.close());

  it('signs in with a 201, an HttpOnly SameSite=Lax cookie, the user and their workspaces', async () => {
    const r = await t.client.post('/api/session', { email: owner.email.toUpperCase(), password: owner.password });
    expect(r.status).to.equal(201);
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie)
      .to.match(/^svc_session=[A-Za-z0-9_-]{43}; /)
      .and.include('HttpOnly')
      .and.include('SameSite=Lax');
    expect(r.body.user.email).to.equal(owner.email);
    expect(r.body.workspaces).to.deep.equal([{ type: 'workspace', id: owner.workspaceId, name: 'Acme', role: 'owner', member_id: owner.memberId }]);
  });

  it('answers a wrong e-mail and a wrong password byte for byte the same', async () => {
    const headers = { 'x-request-id': 'login-probe' };
    const wrongEmail = await t.client.post('/api/session', { email: 'nobody@example.com', password: owner.password }, { headers });
    const wrongPassword = await t.client.post('/api/session', { email: owner.email, password: 'not the password' }, { headers });
    expect(wrongEmail.status).to.equal(401);
    expect(wrongPassword.status).to.equal(401);
    expect(wrongEmail.text).to.equal(wrongPassword.text);
    expect(wrongEmail.body.errors[0].code).to.equal('invalid_credentials');
  });

  it('tells who the caller is with /api/me', async () => {
    const r = await t.client.get(`/api/me?workspace=${owner.workspaceId}`, { cookie: owner.cookie });
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ role: 'owner', via: 'session', member_id: owner.memberId });
    expect(r.body.workspace.id).to.equal(owner.workspaceId);
    expect(r.body.scopes).to.include('api_keys:revoke_any');
  });

  it('refuses a cookie-authenticated write without the X-Service-Workspace header', async () => {
    const r = await t.client.post(
      `/api/members/invites?workspace=${owner.workspaceId}`,
      { email: 'csrf@example.com', role: 'agent' },
      { cookie: owner.cookie },
    );
    expect(r.status).to.equal(403);
    expect(r.body.errors[0].code).to.equal('workspace_header_required');
    const events = await t.service.deps.store.readTenant(owner.workspaceId, 0, 100);
    expect(events.map((e) => e.type)).to.not.include('member.invited');
  });

  it('ends a session with DELETE /api/session', async () => {
    const r = await t.client.post('/api/session', { email: owner.email, password: owner.password });
    const cookie = r.headers.get('set-cookie')!.split(';')[0]!;
    expect((await t.client.get('/api/me', { cookie, workspace: owner.workspaceId })).status).to.equal(200);
    expect((await t.client.delete('/api/session', { cookie, workspace: owner.workspaceId })).status).to.equal(204);
    expect((await t.client.get('/api/me', { cookie, workspace: owner.workspaceId })).status).to.equal(401);
  });

  it('lets an invited person join with the invite token, once', async () => {
    const inv = await t.client.post(
      '/api/members/invites',
      { email: 'New.Person@Example.com', role: 'viewer' },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(inv.status).to.equal(201);
    const accept = await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'New Person', password: 'pw-of-new-person' });
    expect(accept.status).to.equal(202);
    expect(accept.body).to.deep.include({ type: 'invite_acceptance', status: 'accepted', email: 'new.person@example.com' });
    const joined = await t.client.post('/api/session', { email: 'new.person@example.com', password: 'pw-of-new-person' });
    expect(joined.body.workspaces.find((w: { id: string }) => w.id === owner.workspaceId)).to.include({ role: 'viewer' });
    const again = await t.client.post('/api/invites/accept', { token: inv.body.token, name: 'New Person', password: 'pw-of-new-person' });
    expect(again.status).to.equal(404);
    const list = await t.client.get('/api/members', { cookie: owner.cookie, workspace: owner.workspaceId });
    expect(list.body.data.map((m: { email: string }) => m.email)).to.include('new.person@example.com');
    const types = (await t.service.deps.store.readTenant(owner.workspaceId, 0, 100)).map((e) => e.type);
    expect(types).to.include.members(['workspace.created', 'member.joined', 'member.invited']);
  });
});
