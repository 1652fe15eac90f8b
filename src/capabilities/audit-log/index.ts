// The audit log (issue 29, item 1): GET /api/audit_log lists every event with its actor, address, user agent and
// request (from the events' metadata), and the entries kept beside the log for what is not an event (sign-ins,
// sign-outs, throttled sign-ins, device revocations, export downloads, keys used from a new address). Addresses
// and user agents are sealed under the data key of the member (or contact) they are about, so erasure reaches
// them; entries beside the log are kept AUDIT_RETENTION_DAYS. Other capabilities record their entries through
// AuditTrail; the composition root hands the shell eventClientSealer and the Authenticator KeyAddresses.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { auditErasureProjector, auditLogEventsProjector } from './audit-log.projection.js';
import { auditRetention } from './audit-log.retention.js';
import { auditLogRoutes } from './audit-log.routes.js';
import { CLIENT_OBJECTS } from './audit-log.seal.js';

export { AUDIT_ACTIONS, isAuditAction, type AuditAction } from './audit-log.actions.js';
export { eventClientSealer } from './audit-log.seal.js';
export { actorOf, AuditTrail, type AuditActor, type NewAuditEntry } from './audit-log.trail.js';
export { KeyAddresses } from './audit-log.key-addresses.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  unknown_audit_action: { status: 400, when: 'An audit log `action` filter that is neither an event type nor an action recorded beside the log.' },
  invalid_time_range: { status: 400, when: 'An audit log filter whose `since` is not before its `until`.' },
});

export const auditLogModule = defineModule({
  name: 'audit-log',
  errors,
  events: [],
  projectors: [auditErasureProjector, auditLogEventsProjector],
  tables: ['audit_entries', 'audit_key_addresses'],
  personal: CLIENT_OBJECTS,
  routes: auditLogRoutes,
  workers: (deps) => [auditRetention(deps)],
});
