// API keys: minted by members, scoped, rotated and revoked (by a member, or by a reset of the member's password);
// secrets kept as hashes beside the log.
import { defineModule } from '../capability.js';
import { keyEvents } from './keys.events.js';
import { keysProjector } from './keys.projection.js';
import { keysRoutes } from './keys.routes.js';
import { keyRevocationsWorker } from './keys.reset.js';
import { defineErrors } from '../../platform/errors.js';

export { findActiveKeyByHash, findKey } from './keys.read.js';
export { tenantOfKey } from './key-format.js';
export { mintKeyForMember, type MintKeyInput } from './operator.js';
export { revokeKeysOfReset, type KeyRevocationsWorker } from './keys.reset.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  scope_exceeds_role: { status: 403, when: "An API key asking for a scope the member's role does not allow." },
  member_not_found: { status: 404, when: 'The operator CLI minting a key for an e-mail that is no active member of the workspace.' },
});

export const keysModule = defineModule({
  name: 'keys',
  errors,
  tables: ['api_key_secrets', 'key_revocations_due'],
  events: keyEvents,
  projectors: [keysProjector],
  routes: keysRoutes,
  workers: (deps) => [keyRevocationsWorker(deps)],
});
