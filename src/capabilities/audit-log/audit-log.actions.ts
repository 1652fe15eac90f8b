// What the audit log lists beside the events. Every event is an entry whose action is its type (docs/events.md);
// these are the actions that are not events: sign-in state is the user's, beside the log, and reads (a download)
// change nothing, so neither is a domain event. Each is recorded in the audit log of the workspace it concerns.
export const AUDIT_ACTIONS = {
  'session.created': {
    aggregate_type: 'member',
    when: 'A member signed in: one entry in each workspace they are an active member of. Actor: the member.',
  },
  'session.failed': {
    aggregate_type: 'member',
    when: "A sign-in with a member's e-mail and a wrong password: one entry in each workspace they are an active member of. Actor: `system` (`sign_in`); the address is the caller's. An e-mail that is no user's is recorded nowhere (it is no workspace's member).",
  },
  'session.deleted': { aggregate_type: 'member', when: 'A member signed out (`DELETE /api/session`): one entry in each of their workspaces.' },
  'session.throttled': {
    aggregate_type: 'member',
    when: "The sign-in throttle refused attempts on a member's e-mail (a burst): one entry per address the burst came from (at most 20 per burst), in each workspace the member is in. Actor: `system` (`sign_in_throttle`).",
  },
  'devices.revoked': {
    aggregate_type: 'member',
    when: "A member's device cookies were revoked (`DELETE /api/me/devices`, `DELETE /api/members/{id}/devices`).",
  },
  'export.downloaded': { aggregate_type: 'export', when: 'A subject-access export was downloaded (`GET /api/exports/{id}/download`).' },
  'api_key.new_address': { aggregate_type: 'api_key', when: 'An API key was used from an address it had not been used from before (within the retention).' },
  'audit_log.exported': { aggregate_type: 'workspace', when: 'The audit log was exported (reserved for the audit export).' },
} as const satisfies Record<string, { aggregate_type: string; when: string }>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const isAuditAction = (a: string): a is AuditAction => Object.hasOwn(AUDIT_ACTIONS, a);
