// Invites after the security review (issue 35, item 1 and part of 3): they are
// listed and revoked, they do not outlive their inviter's removal or demotion,
// an acceptance re-checks the inviter, and the accept route's answer says nothing
// of the account behind the address.
import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { addMember, newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';

describe('invites: listed, revoked, and no longer than their inviter', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  const as = (m: Member) => ({ cookie: m.cookie, workspace: m.workspaceId });
  let n = 0;
  const address = (what: string) => `${what}-${++n}-${Date.now()}@example.com`;
  const invite = async (by: Member, email: string, role: string) => {
    const r = await t.client.post('/api/members/invites', { email, role }, as(by));
    expect(r.status, r.text).to.equal(201);
    return r.body as { id: string; token: string; email: string };
  };
  const accept = (token: string, password = 'a fine password', name = 'Invitee') => t.client.post('/api/invites/accept', { token, name, password });
  const eventsOf = async (aggregateId: string) =>
    (await t.service.deps.store.readTenant(owner.workspaceId, 0, 10_000)).filter((e) => e.aggregate_id === aggregateId);

  before(async () => {
    clock = new ManualClock(new Date());
    t = await startTestService('invites', { clock });
    owner = await newWorkspace(t);
  });
  after(async () => t.close());

  it('an invite made by an admin who is then removed cannot be accepted', async () => {
    const admin = await addMember(t, owner, 'admin');
    const email = address('by-removed-admin');
    const inv = await invite(admin, email, 'admin');
    expect((await t.client.delete(`/api/members/${admin.memberId}`, as(owner))).status).to.equal(200);

    const r = await accept(inv.token);
    expect(r.status, r.text).to.equal(404);
    expect(r.body.errors[0].code).to.equal('invite_not_found');
    const signin = await t.client.post('/api/session', { email, password: 'a fine password' });
    expect(signin.status, 'no account was made').to.equal(401);
    // Revoked in the command that removed the admin: same transaction, one after the other in the log.
    const events = await eventsOf(inv.id);
    expect(events.map((e) => e.type)).to.deep.equal(['member.invited', 'member.invite_revoked']);
    expect(events[1]!.payload).to.deep.equal({ invite_id: inv.id, revoked_by: owner.memberId, reason: 'inviter_removed' });
    const removal = (await eventsOf(admin.memberId)).find((e) => e.type === 'member.removed')!;
    expect(events[1]!.seq).to.equal(removal.seq + 1);
  });

  it('an acceptance re-checks the inviter: one removed without its invites revoked is refused with a code', async () => {
    const admin = await addMember(t, owner, 'admin');
    const inv = await invite(admin, address('recheck'), 'agent');
    // A removal as earlier versions made it: the member goes, their invites stay pending.
    await t.service.deps.shell.execute(
      { tenantId: owner.workspaceId, now: clock.now(), actor: { type: 'system', id: 'test' } },
      {
        name: 'LegacyRemoval',
        load: async () => null,
        decide: () => [
          {
            type: 'member.removed',
            aggregate_type: 'member',
            aggregate_id: admin.memberId,
            payload: { member_id: admin.memberId, removed_by: owner.memberId },
          },
        ],
      },
    );
    const r = await accept(inv.token);
    expect(r.status, r.text).to.equal(409);
    expect(r.body.errors[0].code).to.equal('inviter_cannot_grant');
  });

  it('demoting a member revokes the invites their new role cannot grant: an admin made agent loses them all, an owner made admin the owner seats', async () => {
    const admin = await addMember(t, owner, 'admin');
    const a1 = await invite(admin, address('demoted-1'), 'agent');
    expect((await t.client.put(`/api/members/${admin.memberId}`, { role: 'agent' }, as(owner))).status).to.equal(200);
    expect((await accept(a1.token)).status).to.equal(404);
    expect((await eventsOf(a1.id)).at(-1)!.payload).to.include({ reason: 'inviter_demoted' });

    const second = await addMember(t, owner, 'owner');
    const ownerSeat = await invite(second, address('owner-seat'), 'owner');
    const adminSeat = await invite(second, address('admin-seat'), 'admin');
    expect((await t.client.put(`/api/members/${second.memberId}`, { role: 'admin' }, as(owner))).status).to.equal(200);
    expect((await accept(ownerSeat.token)).status).to.equal(404);
    expect((await accept(adminSeat.token)).status, 'an admin may still grant admin').to.equal(202);
  });

  it('lists the pending invites and revokes one: its token stops working, its e-mail is forgotten, a repeat answers the same', async () => {
    const email = address('to-revoke');
    const inv = await invite(owner, email, 'viewer');
    const list = await t.client.get('/api/members/invites?per_page=100', as(owner));
    expect(list.status, list.text).to.equal(200);
    const listed = list.body.data.find((i: { id: string }) => i.id === inv.id);
    expect(listed).to.deep.include({ type: 'invite', email, role: 'viewer', status: 'pending', invited_by: owner.memberId });
    expect(listed).to.not.have.property('token');

    const viewer = await addMember(t, owner, 'viewer');
    expect((await t.client.get('/api/members/invites', as(viewer))).status, 'members:read lists').to.equal(200);
    const refused = await t.client.delete(`/api/members/invites/${inv.id}`, as(viewer));
    expect(refused.status, 'members:invite revokes').to.equal(403);

    const revoked = await t.client.delete(`/api/members/invites/${inv.id}`, as(owner));
    expect(revoked.status, revoked.text).to.equal(200);
    expect(revoked.body).to.deep.include({ id: inv.id, status: 'revoked', email: null });
    const again = await t.client.delete(`/api/members/invites/${inv.id}`, as(owner));
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(revoked.body);
    expect((await accept(inv.token)).status).to.equal(404);
    const after = await t.client.get('/api/members/invites?per_page=100', as(owner));
    expect(after.body.data.map((i: { id: string }) => i.id)).to.not.include(inv.id);

    // The event, and the invitee's e-mail gone from the log's copy as read through the feed.
    const feed = await t.client.get('/api/events?types=member.invited,member.invite_revoked&per_page=150', as(owner));
    const mine = feed.body.data.filter((e: { aggregate_id: string }) => e.aggregate_id === inv.id);
    expect(mine.map((e: { type: string }) => e.type)).to.deep.equal(['member.invited', 'member.invite_revoked']);
    expect(mine[0].payload.email).to.equal(null);
    expect(feed.text).to.not.include(email);
    const rows = await t.testDb.db('invite_tokens').where({ invite_id: inv.id });
    expect(rows).to.deep.equal([]);
  });

  it('an accepted invite is not revoked (409), an unknown one is 404; expired invites are listed apart and can be revoked', async () => {
    const joinedEmail = address('joined');
    const joined = await invite(owner, joinedEmail, 'agent');
    expect((await accept(joined.token)).status).to.equal(202);
    const r = await t.client.delete(`/api/members/invites/${joined.id}`, as(owner));
    expect(r.status).to.equal(409);
    expect(r.body.errors[0].code).to.equal('member_active');
    expect((await t.client.delete('/api/members/invites/00000000-0000-4000-8000-000000000000', as(owner))).status).to.equal(404);

    const old = await invite(owner, address('expiring'), 'agent');
    clock.advance(8 * 86_400_000);
    const pending = await t.client.get('/api/members/invites?per_page=100', as(owner));
    expect(pending.body.data.map((i: { id: string }) => i.id)).to.not.include(old.id);
    const expired = await t.client.get('/api/members/invites?status=expired&per_page=100', as(owner));
    expect(expired.body.data.find((i: { id: string }) => i.id === old.id)).to.include({ status: 'expired' });
    expect((await t.client.delete(`/api/members/invites/${old.id}`, as(owner))).body).to.include({ status: 'revoked', email: null });
  });

  it('the accept route answers the same whether or not the address has an account, and whatever the password', async () => {
    // Someone with an account (a member of another workspace), and an address nobody has.
    const elsewhere = await newWorkspace(t, 'Elsewhere');
    const fresh = address('nobody-yet');
    const forExisting = await invite(owner, elsewhere.email, 'agent');
    const forNew = await invite(owner, fresh, 'agent');

    const wrong = await accept(forExisting.token, 'not their password at all');
    const created = await accept(forNew.token, 'chosen by the invitee');
    expect(wrong.status).to.equal(202);
    expect(created.status).to.equal(202);
    const shape = (r: { body: Record<string, unknown> }) => ({ ...r.body, email: '<the invite address>' });
    expect(shape(wrong)).to.deep.equal(shape(created));
    expect(wrong.body).to.deep.include({ type: 'invite_acceptance', status: 'accepted', email: elsewhere.email });
    expect(Object.keys(wrong.body).sort()).to.deep.equal(['email', 'status', 'type', 'workspace']);

    // What happened: the new address has an account with the password its invitee chose, and the membership;
    // the wrong password changed nothing (the invite still works, with the account's own password).
    const session = await t.client.post('/api/session', { email: fresh, password: 'chosen by the invitee' });
    expect(session.body.workspaces.map((w: { id: string }) => w.id)).to.include(owner.workspaceId);
    const before = await t.client.post('/api/session', { email: elsewhere.email, password: elsewhere.password });
    expect(before.body.workspaces.map((w: { id: string }) => w.id)).to.not.include(owner.workspaceId);
    expect((await accept(forExisting.token, elsewhere.password)).status).to.equal(202);
    const after = await t.client.post('/api/session', { email: elsewhere.email, password: elsewhere.password });
    expect(after.body.workspaces.map((w: { id: string }) => w.id)).to.include(owner.workspaceId);
    expect(await signIn(t, elsewhere.email, elsewhere.password)).to.be.a('string');
  });
});
