// API keys: minted by members, scoped, rotated and revoked; secrets kept as hashes beside the log.
import { defineModule } from '../capability.js';
import { keyEvents } from './keys.events.js';
import { keysProjector } from './keys.projection.js';
import { keysRoutes } from './keys.routes.js';

export { findActiveKeyByHash, findKey } from './keys.read.js';
export { tenantOfKey } from './key-format.js';
export { mintKeyForMember, type MintKeyInput } from './operator.js';

export const keysModule = defineModule({ name: 'keys', tables: ['api_key_secrets'], events: keyEvents, projectors: [keysProjector], routes: keysRoutes });
