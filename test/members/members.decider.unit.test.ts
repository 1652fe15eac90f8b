// Membership rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decideAccept, decideChangeRole, decideInvite, decideRemove, type MembershipState } from '../../src/capabilities/members/members.decider.js';
import type { AppError } from '../../src/platform/errors.js';
import { decider } from '../support/decider-spec.js';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'no error';
};
const state = (over: Partial<MembershipState> = {}): MembershipState => ({
  actor: { memberId: 'a', role: 'owner' },
  target: { id: 't', role: 'agent', status: 'active' },
  activeOwners: 1,
  ...over,
});

describe('members decider (unit)', () => {
  it('keeps the last owner', () => {
    expect(codeOf(() => decideChangeRole({ memberId: 't', role: 'admin' }, state({ target: { id: 't', role: 'owner', status: 'active' } })))).to.equal('last_owner');
    expect(codeOf(() => decideRemove({ memberId: 't' }, state({ target: { id: 't', role: 'owner', status: 'active' } })))).to.equal('last_owner');
    expect(decideRemove({ memberId: 't' }, state({ target: { id: 't', role: 'owner', status: 'active' }, activeOwners: 2 }))).to.have.length(1);
  });
  it('lets only owners touch the owner role', () => {
    const admin = { memberId: 'a', role: 'admin' as const };
    expect(codeOf(() => decideChangeRole({ memberId: 't', role: 'owner' }, state({ actor: admin })))).to.equal('owner_required');
    expect(codeOf(() => decideInvite({ inviteId: 'i', email: 'x@example.com', role: 'owner', expiresAt: 'z' }, { actor: admin, alreadyMember: false }))).to.equal('owner_required');
    expect(decideChangeRole({ memberId: 't', role: 'viewer' }, state({ actor: admin }))[0]!.payload).to.deep.equal({ member_id: 't', from: 'agent', to: 'viewer' });
  });
  it('emits nothing for a role that does not change', () => {
    expect(decideChangeRole({ memberId: 't', role: 'agent' }, state())).to.deep.equal([]);
  });
  it('refuses expired or used invites', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    const cmd = { inviteId: 'i', memberId: 'm', userId: 'u', email: 'e', name: 'n' };
    expect(codeOf(() => decideAccept(cmd, { invite: { status: 'pending', role: 'agent', expiresAt: new Date('2026-01-01T00:00:00Z') }, alreadyMember: false, now }))).to.equal('invite_not_found');
    expect(codeOf(() => decideAccept(cmd, { invite: { status: 'accepted', role: 'agent', expiresAt: new Date('2026-02-01T00:00:00Z') }, alreadyMember: false, now }))).to.equal('invite_not_found');
    expect(decideAccept(cmd, { invite: { status: 'pending', role: 'agent', expiresAt: new Date('2026-02-01T00:00:00Z') }, alreadyMember: false, now })[0]!.payload).to.include({ role: 'agent', invite_id: 'i' });
  });

  const owners = (n: number, target: 'owner' | 'agent') => ({ actor: { memberId: 'm0', role: 'owner' as const }, target: { id: 'm1', role: target, status: 'active' as const }, activeOwners: n });
  it('the last owner can be neither demoted nor removed', () => {
    decider(decideChangeRole).given(owners(1, 'owner')).when({ memberId: 'm1', role: 'admin' }).thenRefuses('last_owner');
    decider(decideRemove).given(owners(1, 'owner')).when({ memberId: 'm1' }).thenRefuses('last_owner');
    decider(decideChangeRole).given(owners(2, 'owner')).when({ memberId: 'm1', role: 'admin' }).then({ type: 'member.role_changed', payload: { from: 'owner', to: 'admin' } });
  });
});
