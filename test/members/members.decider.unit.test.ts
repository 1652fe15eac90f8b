import { expect } from 'chai';
import { decideAccept, decideChangeRole, decideInvite, decideRemove, type MembershipState } from '../../src/capabilities/members/members.decider.js';
import { decideCreateKey, decideRevokeKey, decideRotateKey } from '../../src/capabilities/keys/keys.decider.js';
import { effectiveScopes, ROLE_SCOPES, SCOPES } from '../../src/api/scopes.js';
import { API_KEY_RE, mintApiKey, tenantOfKey } from '../../src/capabilities/keys/key-format.js';
import { AppError } from '../../src/platform/errors.js';

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

describe('roles and scopes', () => {
  it('gives owners every scope, agents work without settings or member changes, viewers read only', () => {
    expect(ROLE_SCOPES.owner).to.deep.equal(SCOPES);
    expect(ROLE_SCOPES.agent).to.include.members(['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write']);
    expect(ROLE_SCOPES.agent).to.not.include.members(['settings:write']);
    expect(ROLE_SCOPES.agent.some((s) => s === 'settings:write' || s === 'members:invite')).to.equal(false);
    expect(ROLE_SCOPES.agent).to.include.members(ROLE_SCOPES.viewer as string[]);
    expect(ROLE_SCOPES.viewer.every((s) => s.endsWith(':read'))).to.equal(true);
  });
  it('intersects a key with the current role', () => {
    expect(effectiveScopes('viewer', ['conversations:write', 'conversations:read'])).to.deep.equal(['conversations:read']);
    expect(effectiveScopes('owner', ['conversations:read'])).to.deep.equal(['conversations:read']);
  });
});

describe('membership decider', () => {
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
});

describe('API key decider and format', () => {
  it('mints svc_<32 hex>_<43 base64url> naming the tenant', () => {
    const tenant = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const { secret, hash } = mintApiKey(tenant);
    expect(secret).to.match(API_KEY_RE);
    expect(tenantOfKey(secret)).to.equal(tenant);
    expect(hash).to.match(/^[0-9a-f]{64}$/);
    expect(tenantOfKey('svc_zz_abc')).to.equal(null);
  });
  it('refuses scopes beyond the role and never puts secrets in events', () => {
    expect(codeOf(() => decideCreateKey({ keyId: 'k', memberId: 'm', role: 'viewer', name: 'n', scopes: ['conversations:write'] }))).to.equal('scope_exceeds_role');
    const [e] = decideCreateKey({ keyId: 'k', memberId: 'm', role: 'agent', name: 'n', scopes: ['conversations:read', 'conversations:read'] });
    expect(e!.payload).to.deep.equal({ key_id: 'k', member_id: 'm', name: 'n', scopes: ['conversations:read'] });
  });
  it('rotates only your own active key; revokes others only with revoke_any', () => {
    const key = { id: 'k', memberId: 'm1', status: 'active' as const };
    expect(codeOf(() => decideRotateKey({ keyId: 'k', memberId: 'm2' }, key))).to.equal('not_found');
    expect(decideRotateKey({ keyId: 'k', memberId: 'm1' }, key)).to.have.length(1);
    expect(codeOf(() => decideRevokeKey({ keyId: 'k', actorMemberId: 'm2', scopes: ['api_keys:revoke_own'] }, key))).to.equal('missing_scope');
    expect(decideRevokeKey({ keyId: 'k', actorMemberId: 'm2', scopes: ['api_keys:revoke_any'] }, key)).to.have.length(1);
    expect(decideRevokeKey({ keyId: 'k', actorMemberId: 'm1', scopes: [] }, { ...key, status: 'revoked' })).to.deep.equal([]);
  });
});
