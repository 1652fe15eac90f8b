// Membership rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import {
  decideAccept,
  decideChangeRole,
  decideCreateWorkspace,
  decideEraseMember,
  decideInvite,
  decideRemove,
  decideRevokeInvite,
  mayGrant,
  type ErasureState,
  type MembershipState,
} from '../../src/capabilities/members/members.decider.js';
import { codeOf, decider } from '../support/decider-spec.js';
import { exactDecider } from '../support/decider-spec-exact.js';

const INVITER = { id: 'a', role: 'admin' as const, status: 'active' as const };
const state = (over: Partial<MembershipState> = {}): MembershipState => ({
  actor: { memberId: 'a', role: 'owner' },
  target: { id: 't', role: 'agent', status: 'active' },
  activeOwners: 1,
  ...over,
});

describe('members decider (unit)', () => {
  it('keeps the last owner', () => {
    expect(codeOf(() => decideChangeRole({ memberId: 't', role: 'admin' }, state({ target: { id: 't', role: 'owner', status: 'active' } })))).to.equal(
      'last_owner',
    );
    expect(codeOf(() => decideRemove({ memberId: 't' }, state({ target: { id: 't', role: 'owner', status: 'active' } })))).to.equal('last_owner');
    expect(decideRemove({ memberId: 't' }, state({ target: { id: 't', role: 'owner', status: 'active' }, activeOwners: 2 }))).to.have.length(1);
  });
  it('lets only owners touch the owner role', () => {
    const admin = { memberId: 'a', role: 'admin' as const };
    expect(codeOf(() => decideChangeRole({ memberId: 't', role: 'owner' }, state({ actor: admin })))).to.equal('owner_required');
    expect(
      codeOf(() => decideInvite({ inviteId: 'i', email: 'x@example.com', role: 'owner', expiresAt: 'z' }, { actor: admin, alreadyMember: false })),
    ).to.equal('owner_required');
    expect(decideChangeRole({ memberId: 't', role: 'viewer' }, state({ actor: admin }))[0]!.payload).to.deep.equal({
      member_id: 't',
      from: 'agent',
      to: 'viewer',
    });
  });
  it('emits nothing for a role that does not change', () => {
    expect(decideChangeRole({ memberId: 't', role: 'agent' }, state())).to.deep.equal([]);
  });
  it('refuses expired or used invites', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    const cmd = { inviteId: 'i', memberId: 'm', userId: 'u', email: 'e', name: 'n' };
    expect(
      codeOf(() =>
        decideAccept(cmd, {
          invite: { status: 'pending', role: 'agent', expiresAt: new Date('2026-01-01T00:00:00Z') },
          alreadyMember: false,
          now,
          inviter: INVITER,
        }),
      ),
    ).to.equal('invite_not_found');
    expect(
      codeOf(() =>
        decideAccept(cmd, {
          invite: { status: 'accepted', role: 'agent', expiresAt: new Date('2026-02-01T00:00:00Z') },
          alreadyMember: false,
          now,
          inviter: INVITER,
        }),
      ),
    ).to.equal('invite_not_found');
    expect(
      decideAccept(cmd, {
        invite: { status: 'pending', role: 'agent', expiresAt: new Date('2026-02-01T00:00:00Z') },
        alreadyMember: false,
        now,
        inviter: INVITER,
      })[0]!.payload,
    ).to.include({ role: 'agent', invite_id: 'i' });
  });

  const owners = (n: number, target: 'owner' | 'agent') => ({
    actor: { memberId: 'm0', role: 'owner' as const },
    target: { id: 'm1', role: target, status: 'active' as const },
    activeOwners: n,
  });
  it('the last owner can be neither demoted nor removed', () => {
    decider(decideChangeRole).given(owners(1, 'owner')).when({ memberId: 'm1', role: 'admin' }).thenRefuses('last_owner');
    decider(decideRemove).given(owners(1, 'owner')).when({ memberId: 'm1' }).thenRefuses('last_owner');
    decider(decideChangeRole)
      .given(owners(2, 'owner'))
      .when({ memberId: 'm1', role: 'admin' })
      .then({ type: 'member.role_changed', payload: { from: 'owner', to: 'admin' } });
  });

  it('changing the role of, or removing, a member not loaded or removed is a 404; an admin cannot remove an owner', () => {
    for (const target of [null, { id: 't', role: 'agent' as const, status: 'removed' as const }]) {
      exactDecider(decideChangeRole).given(state({ target })).when({ memberId: 't', role: 'viewer' }).thenRefuses({ code: 'not_found', status: 404 });
      exactDecider(decideRemove).given(state({ target })).when({ memberId: 't' }).thenRefuses({ code: 'not_found', status: 404 });
    }
    exactDecider(decideRemove)
      .given(state({ actor: { memberId: 'a', role: 'admin' }, target: { id: 't', role: 'owner', status: 'active' }, activeOwners: 2 }))
      .when({ memberId: 't' })
      .thenRefuses({ code: 'owner_required', status: 403 });
    exactDecider(decideRemove)
      .given(state())
      .when({ memberId: 't' })
      .then({ type: 'member.removed', aggregate_type: 'member', aggregate_id: 't', payload: { member_id: 't', removed_by: 'a' } });
  });
  it('inviting appends the invite; inviting, or accepting as, someone already a member is refused', () => {
    const invite = { inviteId: 'i', email: 'x@example.com', role: 'agent' as const, expiresAt: '2026-02-01T00:00:00.000Z' };
    exactDecider(decideInvite)
      .given({ actor: { memberId: 'a', role: 'admin' }, alreadyMember: false })
      .when(invite)
      .then({
        type: 'member.invited',
        aggregate_type: 'invite',
        aggregate_id: 'i',
        payload: { invite_id: 'i', email: 'x@example.com', role: 'agent', invited_by: 'a', expires_at: '2026-02-01T00:00:00.000Z' },
      });
    exactDecider(decideInvite)
      .given({ actor: { memberId: 'a', role: 'owner' }, alreadyMember: true })
      .when(invite)
      .thenRefuses({ code: 'already_member', status: 409 });
    const now = new Date('2026-01-02T00:00:00Z');
    const accept = { inviteId: 'i', memberId: 'm', userId: 'u', email: 'e@example.com', name: 'n' };
    exactDecider(decideAccept)
      .given({ invite: null, alreadyMember: false, now, inviter: INVITER })
      .when(accept)
      .thenRefuses({ code: 'invite_not_found', status: 404 });
    exactDecider(decideAccept)
      .given({ invite: { status: 'pending', role: 'agent', expiresAt: new Date('2026-02-01T00:00:00Z') }, alreadyMember: true, now, inviter: INVITER })
      .when(accept)
      .thenRefuses({ code: 'already_member', status: 409 });
  });

  describe('invites that outlive their inviter', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    const accept = { inviteId: 'i', memberId: 'm', userId: 'u', email: 'e@example.com', name: 'n' };
    const pending = (role: 'owner' | 'admin' | 'agent' | 'viewer' = 'admin') => ({
      status: 'pending' as const,
      role,
      expiresAt: new Date('2026-02-01T00:00:00Z'),
    });

    it('who may grant which role: owners any, admins any but owner, agents and viewers none', () => {
      expect((['owner', 'admin', 'agent', 'viewer'] as const).map((r) => mayGrant('owner', r))).to.deep.equal([true, true, true, true]);
      expect((['owner', 'admin', 'agent', 'viewer'] as const).map((r) => mayGrant('admin', r))).to.deep.equal([false, true, true, true]);
      for (const role of ['agent', 'viewer'] as const) expect(mayGrant(role, 'viewer')).to.equal(false);
    });

    it('accepting re-checks the inviter as they are now: removed, demoted below the role, or gone is a coded refusal', () => {
      for (const inviter of [{ ...INVITER, status: 'removed' as const }, { ...INVITER, role: 'agent' as const }, { ...INVITER, role: 'viewer' as const }, null])
        exactDecider(decideAccept)
          .given({ invite: pending('agent'), inviter, alreadyMember: false, now })
          .when(accept)
          .thenRefuses({ code: 'inviter_cannot_grant', status: 409 });
      // An admin's invite to an owner seat (made before a rule change, or by an owner since demoted to admin).
      exactDecider(decideAccept)
        .given({ invite: pending('owner'), inviter: INVITER, alreadyMember: false, now })
        .when(accept)
        .thenRefuses({ code: 'inviter_cannot_grant', status: 409 });
      decider(decideAccept)
        .given({ invite: pending('owner'), inviter: { ...INVITER, role: 'owner' }, alreadyMember: false, now })
        .when(accept)
        .then({ type: 'member.joined', payload: { role: 'owner' } });
    });

    it('removing a member revokes their pending invites in the same decision', () => {
      exactDecider(decideRemove)
        .given(
          state({
            pendingInvites: [
              { id: 'i1', role: 'agent' },
              { id: 'i2', role: 'viewer' },
            ],
          }),
        )
        .when({ memberId: 't' })
        .then(
          { type: 'member.removed', aggregate_type: 'member', aggregate_id: 't', payload: { member_id: 't', removed_by: 'a' } },
          {
            type: 'member.invite_revoked',
            aggregate_type: 'invite',
            aggregate_id: 'i1',
            payload: { invite_id: 'i1', revoked_by: 'a', reason: 'inviter_removed' },
          },
          {
            type: 'member.invite_revoked',
            aggregate_type: 'invite',
            aggregate_id: 'i2',
            payload: { invite_id: 'i2', revoked_by: 'a', reason: 'inviter_removed' },
          },
        );
    });

    it('demoting a member revokes the invites their new role may not grant, and only those', () => {
      const invites = [
        { id: 'i-owner', role: 'owner' as const },
        { id: 'i-admin', role: 'admin' as const },
      ];
      exactDecider(decideChangeRole)
        .given(state({ target: { id: 't', role: 'owner', status: 'active' }, activeOwners: 2, pendingInvites: invites }))
        .when({ memberId: 't', role: 'admin' })
        .then(
          { type: 'member.role_changed', aggregate_type: 'member', aggregate_id: 't', payload: { member_id: 't', from: 'owner', to: 'admin' } },
          {
            type: 'member.invite_revoked',
            aggregate_type: 'invite',
            aggregate_id: 'i-owner',
            payload: { invite_id: 'i-owner', revoked_by: 'a', reason: 'inviter_demoted' },
          },
        );
      const toAgent = decideChangeRole(
        { memberId: 't', role: 'agent' },
        state({ target: { id: 't', role: 'admin', status: 'active' }, pendingInvites: invites }),
      );
      expect(toAgent.slice(1).map((e) => e.aggregate_id)).to.deep.equal(['i-owner', 'i-admin']);
      const promoted = decideChangeRole(
        { memberId: 't', role: 'owner' },
        state({ target: { id: 't', role: 'admin', status: 'active' }, pendingInvites: invites }),
      );
      expect(promoted.map((e) => e.type)).to.deep.equal(['member.role_changed']);
    });

    it('revoking: a pending (or expired) invite is revoked once, an accepted one is 409, an owner seat needs an owner', () => {
      const admin = { memberId: 'a', role: 'admin' as const };
      const revoke = exactDecider(decideRevokeInvite);
      revoke
        .given({ actor: admin, invite: { status: 'pending', role: 'agent' } })
        .when({ inviteId: 'i' })
        .then({ type: 'member.invite_revoked', aggregate_type: 'invite', aggregate_id: 'i', payload: { invite_id: 'i', revoked_by: 'a', reason: 'revoked' } });
      revoke
        .given({ actor: admin, invite: { status: 'revoked', role: 'agent' } })
        .when({ inviteId: 'i' })
        .thenNothing();
      revoke
        .given({ actor: admin, invite: { status: 'accepted', role: 'agent' } })
        .when({ inviteId: 'i' })
        .thenRefuses({ code: 'member_active', status: 409 });
      revoke
        .given({ actor: admin, invite: { status: 'pending', role: 'owner' } })
        .when({ inviteId: 'i' })
        .thenRefuses({ code: 'owner_required', status: 403 });
      revoke.given({ actor: admin, invite: null }).when({ inviteId: 'i' }).thenRefuses({ code: 'not_found', status: 404 });
    });
  });

  describe('a new workspace', () => {
    const create = exactDecider(decideCreateWorkspace);
    const cmd = { workspaceId: 'w1', name: 'Acme', owner: { memberId: 'm1', userId: 'u1', email: 'ann@acme.example', name: 'Ann' } };
    it('creating a workspace appends its creation and its founder joining as owner (without an invite)', () => {
      create
        .given({ exists: false })
        .when(cmd)
        .then(
          { type: 'workspace.created', aggregate_type: 'workspace', aggregate_id: 'w1', payload: { workspace_id: 'w1', name: 'Acme' } },
          {
            type: 'member.joined',
            aggregate_type: 'member',
            aggregate_id: 'm1',
            payload: { member_id: 'm1', user_id: 'u1', email: 'ann@acme.example', name: 'Ann', role: 'owner' },
          },
        );
    });
    it('creating a workspace that exists is refused', () => {
      create.given({ exists: true }).when(cmd).thenRefuses({ code: 'workspace_exists', status: 409 });
    });
  });

  describe('erasing a member', () => {
    const erase = exactDecider(decideEraseMember);
    const owner = { memberId: 'm0', role: 'owner' as const };
    const removed = (over: Partial<NonNullable<ErasureState['target']>> = {}): ErasureState['target'] => ({
      id: 'm1',
      status: 'removed',
      erasedAt: null,
      inviteId: 'i1',
      ...over,
    });
    it('an owner erasing a removed member appends the erasure, naming the invite it came by and who erased', () => {
      erase
        .given({ actor: owner, target: removed() })
        .when({ memberId: 'm1' })
        .then({ type: 'member.erased', aggregate_type: 'member', aggregate_id: 'm1', payload: { member_id: 'm1', invite_id: 'i1', erased_by: 'm0' } });
      erase
        .given({ actor: owner, target: removed({ inviteId: null }) })
        .when({ memberId: 'm1' })
        .then({ type: 'member.erased', aggregate_type: 'member', aggregate_id: 'm1', payload: { member_id: 'm1', invite_id: null, erased_by: 'm0' } });
    });
    it('erasing a member already erased appends nothing', () => {
      erase
        .given({ actor: owner, target: removed({ erasedAt: new Date('2026-01-01T00:00:00Z') }) })
        .when({ memberId: 'm1' })
        .thenNothing();
    });
    it('erasing a member is refused to anyone but an owner, before anything is looked at', () => {
      for (const role of ['admin', 'agent', 'viewer'] as const) {
        erase
          .given({ actor: { memberId: 'm0', role }, target: removed() })
          .when({ memberId: 'm1' })
          .thenRefuses({ code: 'owner_required', status: 403 });
        erase
          .given({ actor: { memberId: 'm0', role }, target: null })
          .when({ memberId: 'm1' })
          .thenRefuses({ code: 'owner_required', status: 403 });
      }
    });
    it("erasing a member not loaded (none, or another workspace's) is a 404", () => {
      erase.given({ actor: owner, target: null }).when({ memberId: 'm1' }).thenRefuses({ code: 'not_found', status: 404 });
    });
    it('erasing an active member is refused: remove them first', () => {
      erase
        .given({ actor: owner, target: removed({ status: 'active' }) })
        .when({ memberId: 'm1' })
        .thenRefuses({ code: 'member_active', status: 409 });
    });
  });
});
