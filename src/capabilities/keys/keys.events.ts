import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

export const ApiKeyCreated = defineEvent({
  type: 'api_key.created',
  aggregate_type: 'api_key',
  description: 'A member minted an API key. The secret never enters the log; only its hash is kept beside it.',
  payload: payload({ key_id: Uuid(), member_id: Uuid(), name: Text(), scopes: Type.Array(Text()) }),
});

export const ApiKeyRotated = defineEvent({
  type: 'api_key.rotated',
  aggregate_type: 'api_key',
  description: 'A key got a new secret with the same scopes; the old secret stopped working at once.',
  payload: payload({ key_id: Uuid(), member_id: Uuid() }),
});

/** Why a key was revoked: by a member (DELETE /api/keys/{id}), or by a reset of its member's password. */
export const REVOCATION_REASONS = ['revoked', 'password_reset'] as const;

export const ApiKeyRevoked = defineEvent({
  type: 'api_key.revoked',
  aggregate_type: 'api_key',
  description:
    "A key was revoked: by its member or by someone holding api_keys:revoke_any (`reason` `revoked`, `revoked_by` that member), or because the password of its member's account was reset (`reason` `password_reset`: a reset revokes every key of the account, in each workspace; `revoked_by` is then the key's own member, whose account it is, and the event's actor `{type: 'system', id: 'password_reset'}`). Events older than `reason` have none: read them as `revoked`.",
  // reason is optional for the events appended before it existed; every new one carries it.
  payload: payload({
    key_id: Uuid(),
    member_id: Uuid(),
    revoked_by: Uuid(),
    reason: Type.Optional(Type.Union(REVOCATION_REASONS.map((r) => Type.Literal(r)))),
  }),
});

export const keyEvents = [ApiKeyCreated, ApiKeyRotated, ApiKeyRevoked] as const;
export type KeyEvent = EventOf<(typeof keyEvents)[number]>;
