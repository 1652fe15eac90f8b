import type { Request } from 'express';
import type { Logger } from '../platform/logger.js';
import type { Role, Scope } from './scopes.js';

/** Who is calling, resolved once per request by the authenticator. */
export interface Principal {
  tenantId: string;
  userId: string;
  memberId: string;
  role: Role;
  scopes: Scope[];
  via: 'api_key' | 'session';
  keyId?: string;
  sessionId?: string;
  sessionMintedAt?: Date;
  /** the idempotency scope: the key, or the member for sessions */
  callerId: string;
}

export interface RequestContext {
  requestId: string;
  /** carries request_id (and tenant and member once authenticated) */
  readonly log: Logger;
  rawBody?: Buffer;
  principal?: Principal;
  /** the route template that took the request (`/api/conversations/:id`), for metrics */
  route?: string;
}

const KEY = Symbol('request-context');

export function setContext(req: Request, ctx: RequestContext): void {
  (req as unknown as Record<symbol, RequestContext>)[KEY] = ctx;
}

export function contextOf(req: Request): RequestContext {
  const ctx = (req as unknown as Record<symbol, RequestContext | undefined>)[KEY];
  if (!ctx) throw new Error('request context missing: is the request-context middleware mounted first?');
  return ctx;
}
