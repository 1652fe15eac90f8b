// Resolves the caller of an /api request (spec 5.1, 5.4) into a Principal with
// its effective scopes. A bearer key names its tenant inside itself; a session
// names it with X-Service-Workspace or ?workspace=. Every failure to identify a
// key is the same 401; a workspace the user is not in answers 404.
import type { Request } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../platform/clock.js';
import { digestsEqual, sha256Hex } from '../../platform/crypto/hmac.js';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../platform/errors.js';
import { contextOf, type Principal } from '../../api/context.js';
import { requestClient } from '../../api/command-context.js';
import { effectiveScopes } from '../../api/scopes.js';
import type { KeyAddresses } from '../audit-log/index.js';
import { findActiveKeyByHash, tenantOfKey } from '../keys/index.js';
import { activeMemberOfUser, findActiveMember } from '../members/index.js';
import { FRESH_SESSION_MS, SESSION_COOKIE, findSession, readCookie } from './sessions.repo.js';
import { TenantCache } from '../../platform/tenant-cache.js';
import type { CommandShell } from '../../commands/shell.js';
import type { PgNotifier } from '../../eventstore/pg-notifier.js';

const invalidKey = () => new Unauthorized('invalid_api_key', 'The API key is missing, malformed, unknown or revoked.');

/** Events that change who a key acts as or what it may do. */
// A member's availability and capacity (routing) change nothing a principal holds: they keep the cache.
const AUTH_EVENTS = /^(member|api_key)\.(?!availability_changed$|capacity_changed$)/;
export const AUTH_CHANGED_CHANNEL = 'auth_changed';
const PRINCIPAL_TTL_MS = 30_000;

export class Authenticator {
  // Bearer principals by key hash. Dropped after any member or key change of the
  // tenant: at once in this process (before the command's answer is sent), and
  // by NOTIFY in the others.
  private readonly principals = new TenantCache<Principal>(PRINCIPAL_TTL_MS);

  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
    /** records a key's first use from an address in the audit log (api_key.new_address) */
    private readonly keyAddresses?: KeyAddresses,
  ) {}

  /** Wires invalidation: local commits synchronously, other processes through NOTIFY. */
  async watch(shell: CommandShell, notifier: PgNotifier): Promise<void> {
    shell.onCommitted((tenantId, events) => {
      if (!events.some((e) => AUTH_EVENTS.test(e.type))) return;
      this.principals.invalidate(tenantId);
      this.db.raw('SELECT pg_notify(?, ?)', [AUTH_CHANGED_CHANNEL, tenantId]).catch(() => undefined);
    });
    // An empty payload is the notifier saying its connection dropped: notifications may have been missed.
    await notifier.listen(AUTH_CHANGED_CHANNEL, (tenantId) => (tenantId ? this.principals.invalidate(tenantId) : this.principals.invalidateAll()));
  }

  async authenticate(req: Request): Promise<Principal> {
    const auth = req.get('authorization');
    if (auth !== undefined) {
      const principal = await this.bearer(auth);
      await this.keyAddresses?.noted(principal, requestClient(req), contextOf(req).requestId);
      return principal;
    }
    const token = readCookie(req.get('cookie'), SESSION_COOKIE);
    if (token) return this.session(req, token);
    throw new Unauthorized('unauthenticated', 'Send an API key as "Authorization: Bearer <key>" or a session cookie.');
  }

  private async bearer(header: string): Promise<Principal> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const secret = m?.[1];
    const tenantId = secret ? tenantOfKey(secret) : null;
    if (!secret || !tenantId) throw invalidKey();
    const hash = sha256Hex(secret);
    // The service's clock, not Date.now(): a test's manual clock then holds entries for as long as it means to.
    const cached = this.principals.get(hash, this.clock.now().getTime());
    if (cached) return cached;
    const generation = this.principals.generation(tenantId);
    const key = await findActiveKeyByHash(this.db, tenantId, hash);
    // The index found the row by hash; the constant-time compare is the check that counts.
    const member = key && digestsEqual(key.secret_hash, hash) ? await findActiveMember(this.db, tenantId, key.member_id) : undefined;
    if (!key || !member) throw invalidKey();
    const principal: Principal = {
      tenantId,
      userId: member.user_id,
      memberId: member.id,
      role: member.role,
      scopes: effectiveScopes(member.role, key.scopes),
      via: 'api_key',
      keyId: key.id,
      callerId: `key:${key.id}`,
    };
    this.principals.set(hash, tenantId, principal, generation, this.clock.now().getTime());
    return principal;
  }

  private async session(req: Request, token: string): Promise<Principal> {
    const session = await findSession(this.db, token, this.clock.now());
    if (!session) throw new Unauthorized('session_expired', 'The session is unknown or has expired; sign in again.');
    const header = req.get('x-service-workspace');
    const workspace = header ?? (typeof req.query.workspace === 'string' ? req.query.workspace : undefined);
    if (!workspace) {
      throw new BadRequest(
        'workspace_required',
        'Name the workspace with the X-Service-Workspace header or the workspace query parameter.',
        'X-Service-Workspace',
      );
    }
    // A cross-site form can send the cookie but cannot set a header: writes need the header.
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && header === undefined) {
      throw new Forbidden('workspace_header_required', 'Cookie-authenticated writes must name the workspace in the X-Service-Workspace header.');
    }
    const member = await activeMemberOfUser(this.db, workspace, session.user_id);
    if (!member) throw new NotFound('workspace', 'workspace_not_found');
    return {
      tenantId: workspace.toLowerCase(),
      userId: session.user_id,
      memberId: member.id,
      role: member.role,
      scopes: effectiveScopes(member.role),
      via: 'session',
      sessionId: session.id,
      sessionMintedAt: session.minted_at,
      callerId: `member:${member.id}`,
    };
  }

  requireFreshSession(p: Principal): void {
    if (p.via !== 'session' || !p.sessionMintedAt) {
      throw new Forbidden('session_required', 'Minting or rotating a key needs a member session, not an API key.');
    }
    if (this.clock.now().getTime() - p.sessionMintedAt.getTime() > FRESH_SESSION_MS) {
      throw new Forbidden('session_too_old', 'Minting or rotating a key needs a session signed in within the last 15 minutes; sign in again.');
    }
  }
}
