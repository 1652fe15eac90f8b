import type { NewEvent } from '../../eventstore/envelope.js';
import { Forbidden, NotFound } from '../../platform/errors.js';
import { ROLE_SCOPES, type Role, type Scope } from '../access/scopes.js';

export interface KeyView {
  id: string;
  memberId: string;
  status: 'active' | 'revoked';
}

const keyEvent = (type: string, keyId: string, payload: Record<string, unknown>): NewEvent => ({
  type,
  aggregate_type: 'api_key',
  aggregate_id: keyId,
  payload: { key_id: keyId, ...payload },
});

/** A key may not be minted with more than its owner's role grants now. */
export function decideCreateKey(cmd: { keyId: string; memberId: string; role: Role; name: string; scopes: Scope[] }): NewEvent[] {
  const beyond = cmd.scopes.filter((s) => !ROLE_SCOPES[cmd.role].includes(s));
  if (beyond.length > 0) throw new Forbidden('scope_exceeds_role', `Your role (${cmd.role}) does not grant: ${beyond.join(', ')}.`);
  return [keyEvent('api_key.created', cmd.keyId, { member_id: cmd.memberId, name: cmd.name, scopes: [...new Set(cmd.scopes)] })];
}

/** Only the key's own member rotates it: the answer carries the new secret. */
export function decideRotateKey(cmd: { keyId: string; memberId: string }, key: KeyView | null): NewEvent[] {
  if (!key || key.status !== 'active' || key.memberId !== cmd.memberId) throw new NotFound('API key');
  return [keyEvent('api_key.rotated', cmd.keyId, { member_id: key.memberId })];
}

export function decideRevokeKey(cmd: { keyId: string; actorMemberId: string; scopes: readonly Scope[] }, key: KeyView | null): NewEvent[] {
  if (!key) throw new NotFound('API key');
  const own = key.memberId === cmd.actorMemberId;
  if (!own && !cmd.scopes.includes('api_keys:revoke_any')) {
    throw new Forbidden('missing_scope', "Revoking another member's key needs the scope api_keys:revoke_any.");
  }
  if (key.status === 'revoked') return [];
  return [keyEvent('api_key.revoked', cmd.keyId, { member_id: key.memberId, revoked_by: cmd.actorMemberId })];
}
