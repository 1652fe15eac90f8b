// Resolves the caller of an /api request (spec 5.1, 5.4) into a Principal with
// its effective scopes. A bearer key names its tenant inside itself; a session
// names it with X-Service-Workspace or ?workspace=. Every failure to identify a
// key is the same 401; a workspace the user is not in answers 404.
import type { Request } from 'express';
import type { Knex } from 'knex';
import type { Clock } from '../../platform/clock.js';
import { digestsEqual, sha256Hex } from '../../platform/crypto/hmac.js';
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { Principal } from '../../api/context.js';
import { tenantOfKey } from '../keys/key-format.js';
import { effectiveScopes, type Role } from './scopes.js';
import { FRESH_SESSION_MS, SESSION_COOKIE, findSession, readCookie } from './sessions.repo.js';
import { TenantCache } from '../../platform/tenant-cache.js';
import type { CommandShell } from '../../commands/shell.js';
import type { PgNotifier } from '../../eventstore/pg-notifier.js';

const invalidKey = () => new Unauthorized('invalid_api_key', 'The API key is missing, malformed, unknown or revoked.');

/** Events that change who a key acts as or what it may do. */
const AUTH_EVENTS = /^(member|api_key)\./;
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
  ) {}

  /** Wires invalidation: local commits synchronously, other processes through NOTIFY. */
  async watch(shell: CommandShell, notifier: PgNotifier): Promise<void> {
    shell.onCommitted((tenantId, events) => {
      if (!events.some((e) => AUTH_EVENTS.test(e.type))) return;
      this.principals.invalidate(tenantId);
      this.db.raw('SELECT pg_notify(?, ?)', [AUTH_CHANGED_CHANNEL, tenantId]).catch(() => undefined);
    });
    await notifier.listen(AUTH_CHANGED_CHANNEL, (tenantId) => (tenantId ? this.principals.invalidate(tenantId) : undefined));
  }

  async authenticate(req: Request): Promise<Principal> {
    const auth = req.get('authorization');
    if (auth !== undefined) return this.bearer(auth);
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
    const cached = this.principals.get(hash);
    if (cached) return cached;
    const generation = this.principals.generation(tenantId);
    const row = await this.db('api_key_secrets as s')
      .join('api_keys as k', function () {
        this.on('k.tenant_id', 's.tenant_id').andOn('k.id', 's.key_id');
      })
      .join('members as m', function () {
        this.on('m.tenant_id', 'k.tenant_id').andOn('m.id', 'k.member_id');
      })
      .where({ 's.secret_hash': hash, 's.tenant_id': tenantId, 'k.status': 'active', 'm.status': 'active' })
      .first('s.secret_hash', 'k.id as key_id', 'k.scopes', 'm.id as member_id', 'm.user_id', 'm.role');
    // The index found the row by hash; the constant-time compare is the check that counts.
    if (!row || !digestsEqual(row.secret_hash, hash)) throw invalidKey();
    const principal: Principal = {
      tenantId,
      userId: row.user_id,
      memberId: row.member_id,
      role: row.role as Role,
      scopes: effectiveScopes(row.role as Role, row.scopes),
      via: 'api_key',
      keyId: row.key_id,
      callerId: `key:${row.key_id}`,
    };
    this.principals.set(hash, tenantId, principal, generation);
    return principal;
  }

  private async session(req: Request, token: string): Promise<Principal> {
    const session = await findSession(this.db, token, this.clock.now());
    if (!session) throw new Unauthorized('session_expired', 'The session is unknown or has expired; sign in again.');
    const header = req.get('x-service-workspace');
    const workspace = header ?? (typeof req.query.workspace === 'string' ? req.query.workspace : undefined);
    if (!workspace) {
      throw new BadRequest('workspace_required', 'Name the workspace with the X-Service-Workspace header or the workspace query parameter.', 'X-Service-Workspace');
    }
    // A cross-site form can send the cookie but cannot set a header: writes need the header.
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && header === undefined) {
      throw new Forbidden('workspace_header_required', 'Cookie-authenticated writes must name the workspace in the X-Service-Workspace header.');
    }
    const member = isUuid(workspace)
      ? await this.db('members').where({ tenant_id: workspace.toLowerCase(), user_id: session.user_id, status: 'active' }).first('id', 'role')
      : undefined;
    if (!member) throw new NotFound('workspace', 'workspace_not_found');
    return {
      tenantId: workspace.toLowerCase(),
      userId: session.user_id,
      memberId: member.id,
      role: member.role as Role,
      scopes: effectiveScopes(member.role as Role),
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
