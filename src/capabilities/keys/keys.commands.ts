import type { CommandSpec } from '../../commands/command.js';
import { hashedSecrets } from '../../commands/beside-secrets.js';
import type { Role, Scope } from '../../api/scopes.js';
import { decideCreateKey, decideRevokeKey, decideRevokeKeyOnReset, decideRotateKey, type KeyView } from './keys.decider.js';
import type { KeyEvent } from './keys.events.js';
import { findKey, keyView } from './keys.read.js';
import { mintApiKey } from './key-format.js';

const keySecrets = hashedSecrets({ table: 'api_key_secrets', owner: 'key_id', hash: 'secret_hash' });

/** Mints a key; the returned secret is shown once (only its hash is kept, beside the log). */
export function createKey(input: { keyId: string; tenantId: string; memberId: string; role: Role; name: string; scopes: Scope[] }) {
  const { secret } = mintApiKey(input.tenantId);
  const spec: CommandSpec<null, KeyEvent> = {
    name: 'CreateApiKey',
    load: async () => null,
    decide: () => decideCreateKey(input),
    beside: (db, events, ctx) => keySecrets.store(db, ctx.tenantId, events[0]!.aggregate_id, secret),
    // The first attempt's secret was never shown (its answer was lost): this one replaces it.
    replayed: (db, events, ctx) => keySecrets.replace(db, ctx.tenantId, events[0]!.aggregate_id, secret),
  };
  return { spec, secret };
}

/** A new secret, same scopes; replacing the hash is what kills the old secret, atomically with the event. */
export function rotateKey(input: { tenantId: string; keyId: string; memberId: string }) {
  const { secret } = mintApiKey(input.tenantId);
  const replace: CommandSpec<KeyView | null, KeyEvent>['beside'] = (db, _events, ctx) => keySecrets.replace(db, ctx.tenantId, input.keyId, secret);
  const spec: CommandSpec<KeyView | null, KeyEvent> = {
    name: 'RotateApiKey',
    load: async (db, ctx) => keyView(await findKey(db, ctx.tenantId, input.keyId)),
    decide: (key) => decideRotateKey(input, key),
    beside: replace,
    replayed: replace,
  };
  return { spec, secret };
}

export const revokeKey = (input: { keyId: string; actorMemberId: string; scopes: readonly Scope[] }): CommandSpec<KeyView | null, KeyEvent> => ({
  name: 'RevokeApiKey',
  load: async (db, ctx) => keyView(await findKey(db, ctx.tenantId, input.keyId)),
  decide: (key) => decideRevokeKey(input, key),
});

/** The revocation a password reset owes (keys.reset.ts); the key's secret is already gone, with the reset. */
export const revokeKeyOnReset = (keyId: string): CommandSpec<KeyView | null, KeyEvent> => ({
  name: 'RevokeApiKeyOnPasswordReset',
  load: async (db, ctx) => keyView(await findKey(db, ctx.tenantId, keyId)),
  decide: (key) => decideRevokeKeyOnReset(keyId, key),
});
