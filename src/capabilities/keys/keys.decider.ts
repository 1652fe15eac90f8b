import { Forbidden, NotFound } from '../../platform/errors.js';
import { ROLE_SCOPES, type Role, type Scope } from '../../api/scopes.js';
import type { KeyEvent } from './keys.events.js';

export interface KeyView {
  id: string;
  memberId: string;
  status: 'active' | 'revoked';
}

/** A key may not be minted with more than its owner's role grants now. */
export function decideCreateKey(cmd: { keyId: string; memberId: string; role: Role; name: string; scopes: Scope[] }): KeyEvent[] {
  const beyond = cmd.scopes.filter((s) => !ROLE_SCOPES[cmd.role].includes(s));
  if (beyond.length > 0) throw new Forbidden('scope_exceeds_role', `Your role (${cmd.role}) does not grant: ${beyond.join(', ')}.`);
  return [
    {
      type: 'api_key.created',
      aggregate_type: 'api_key',
      aggregate_id: cmd.keyId,
      payload: { key_id: cmd.keyId, member_id: cmd.memberId, name: cmd.name, scopes: [...new Set(cmd.scopes)] },
    },
  ];
}

/** Only the key's own member rotates it: the answer carries the new secret. */
export function decideRotateKey(cmd: { keyId: string; memberId: string }, key: KeyView | null): KeyEvent[] {
  if (!key || key.status !== 'active' || key.memberId !== cmd.memberId) throw new NotFound('API key');
  return [{ type: 'api_key.rotated', aggregate_type: 'api_key', aggregate_id: cmd.keyId, payload: { key_id: cmd.keyId, member_id: key.memberId } }];
}

export function decideRevokeKey(cmd: { keyId: string; actorMemberId: string; scopes: readonly Scope[] }, key: KeyView | null): KeyEvent[] {
  if (!key) throw new NotFound('API key');
  const own = key.memberId === cmd.actorMemberId;
  if (!own && !cmd.scopes.includes('api_keys:revoke_any')) {
    throw new Forbidden('missing_scope', "Revoking another member's key needs the scope api_keys:revoke_any.");
  }
  if (key.status === 'revoked') return [];
  return [
    {
      type: 'api_key.revoked',
      aggregate_type: 'api_key',
      aggregate_id: cmd.keyId,
      payload: { key_id: cmd.keyId, member_id: key.memberId, revoked_by: cmd.actorMemberId, reason: 'revoked' },
    },
  ];
}

/**
 * A reset of the password of the key's member's account revokes the key: a reset is what someone does who fears
 * the account is taken, and a key minted by whoever held the old password must not outlive it. Already revoked (a
 * member's revocation came first, or a second pass over the same reset): nothing.
 */
export function decideRevokeKeyOnReset(keyId: string, key: KeyView | null): KeyEvent[] {
  if (!key || key.status === 'revoked') return [];
  return [
    {
      type: 'api_key.revoked',
      aggregate_type: 'api_key',
      aggregate_id: keyId,
      payload: { key_id: keyId, member_id: key.memberId, revoked_by: key.memberId, reason: 'password_reset' },
    },
  ];
}
