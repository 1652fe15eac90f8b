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

export const ApiKeyRevoked = defineEvent({
  type: 'api_key.revoked',
  aggregate_type: 'api_key',
  description: 'A key was revoked, by its member or by someone holding api_keys:revoke_any.',
  payload: payload({ key_id: Uuid(), member_id: Uuid(), revoked_by: Uuid() }),
});

export const keyEvents = [ApiKeyCreated, ApiKeyRotated, ApiKeyRevoked] as const;
export type KeyEvent = EventOf<(typeof keyEvents)[number]>;
