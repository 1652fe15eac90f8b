// The log as evidence (issue 29, items 3 to 5; docs/audit.md). The stores hash-chain every event
// (src/platform/crypto/chain.ts); this capability signs checkpoints of the chain head with the
// service's Ed25519 key, publishes the public keys, streams the export an auditor verifies offline
// (src/audit-verify.ts), issues checkpoints on a schedule, and verifies every chain from the
// database (`npm run -s cli -- audit verify`). Issue 44: it signs only a log that extends its last
// checkpoint (audit-chain.extension.ts, audit-chain.issue.ts), checkpoints name their predecessor
// (version 2), and a witness folder outside the database keeps them (audit-chain.witness.ts).
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { auditChainRoutes } from './audit-chain.routes.js';
import { checkpointWorker } from './audit-chain.worker.js';
import { lazySigner } from './audit-chain.keys.js';
import { issuerOf } from './audit-chain.issue.js';

export { verifyChains, type VerifyReport, type ChainFailure, type TrustedCheckpoint } from './audit-chain.verify.js';
export { checkpointWorker, type CheckpointWorker } from './audit-chain.worker.js';
export { chainAlarm } from './audit-chain.alarm.js';
export { fileWitness, type Witness } from './audit-chain.witness.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  invalid_seq_range: { status: 400, when: 'An audit export whose `to_seq` is before its `after_seq`.' },
  audit_chain_broken: {
    status: 409,
    when: 'A checkpoint or export asked of a log that does not extend the last checkpoint the service signed (an event rewritten, deleted or given a made-up hash since, or a checkpoint the service did not issue): the message names the first seq that fails.',
  },
  audit_chain_incomplete: {
    status: 409,
    when: 'A checkpoint or export would cover an event written without a chain hash (with AUDIT_CHAIN=off, a bench switch).',
  },
});

export const auditChainModule = defineModule({
  name: 'audit-chain',
  errors,
  events: [],
  tables: ['audit_checkpoints', 'audit_signing_keys'],
  routes: auditChainRoutes,
  workers: (deps) => [checkpointWorker(deps, issuerOf(deps, lazySigner(deps.config)))],
});
