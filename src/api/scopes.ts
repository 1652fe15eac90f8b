// Scopes (spec 5.2) and what each role may hold (spec 5.3). A request's
// effective scopes are the key's stored scopes intersected with what the
// member's *current* role allows, so demoting a member narrows their keys at once.
export const SCOPES = [
  'conversations:read',
  'conversations:write',
  'conversations:delete',
  'contacts:read',
  'contacts:write',
  'contacts:delete',
  'contacts:export',
  'settings:read',
  'settings:write',
  'members:read',
  'members:invite',
  'events:read',
  'api_keys:create',
  'api_keys:revoke_own',
  'api_keys:revoke_any',
  'audit:read',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ROLES = ['owner', 'admin', 'agent', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const isScope = (s: unknown): s is Scope => typeof s === 'string' && (SCOPES as readonly string[]).includes(s);

// audit:read is not a read scope like the others: the audit log shows who did what from which address (every
// member's), so it is for those who run the workspace, owners and admins, never agents or viewers.
const READ: Scope[] = SCOPES.filter((s) => s.endsWith(':read') && s !== 'audit:read');
const WORK: Scope[] = ['conversations:read', 'conversations:write', 'contacts:read', 'contacts:write'];

export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  // An admin runs the workspace day to day: everything but revoking other people's keys
  // is theirs too; revoke_any stays with owners so an admin cannot cut off an owner's integrations.
  admin: SCOPES.filter((s) => s !== 'api_keys:revoke_any'),
  // Agents work conversations and contacts and read everything a viewer reads. They may
  // mint keys for their own tools (a key never exceeds their role, and shrinks with it).
  agent: [...new Set([...READ, ...WORK, 'api_keys:create' as const, 'api_keys:revoke_own' as const])],
  // Viewers hold every read scope (change feed included). No key minting: a read-only
  // seat should not spawn credentials.
  viewer: READ,
};

export function effectiveScopes(role: Role, keyScopes?: readonly string[]): Scope[] {
  const allowed = ROLE_SCOPES[role];
  return keyScopes ? allowed.filter((s) => keyScopes.includes(s)) : [...allowed];
}
