// API key rules as specifications: given the loaded key, when a command, then events or a coded refusal.
import { expect } from 'chai';
import { decideCreateKey, decideRevokeKey, decideRevokeKeyOnReset, decideRotateKey } from '../../src/capabilities/keys/keys.decider.js';
import { codeOf, decider } from '../support/decider-spec.js';

describe('keys decider (unit)', () => {
  it('refuses scopes beyond the role and never puts secrets in events', () => {
    expect(codeOf(() => decideCreateKey({ keyId: 'k', memberId: 'm', role: 'viewer', name: 'n', scopes: ['conversations:write'] }))).to.equal(
      'scope_exceeds_role',
    );
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
    decider(decideRevokeKey)
      .given(key)
      .when({ keyId: 'k', actorMemberId: 'm2', scopes: ['api_keys:revoke_any'] })
      .then({ type: 'api_key.revoked', payload: { member_id: 'm1', revoked_by: 'm2', reason: 'revoked' } });
  });
  it("a password reset revokes its member's active key, once, in the member's name with its own reason", () => {
    const onReset = decider((keyId: string, key: Parameters<typeof decideRevokeKeyOnReset>[1]) => decideRevokeKeyOnReset(keyId, key));
    onReset
      .given({ id: 'k', memberId: 'm1', status: 'active' })
      .when('k')
      .then({ type: 'api_key.revoked', aggregate_id: 'k', payload: { key_id: 'k', member_id: 'm1', revoked_by: 'm1', reason: 'password_reset' } });
    // A member revoked it first, or a second pass over the same reset (the worker after the route): nothing.
    onReset.given({ id: 'k', memberId: 'm1', status: 'revoked' }).when('k').thenNothing();
    onReset.given(null).when('k').thenNothing();
  });
});
