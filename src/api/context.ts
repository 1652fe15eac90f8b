// A request's context: who is calling and how to log about it, made by the first middleware of every request
// (`requestContext()`) and read by everything after it (`contextOf()`).
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
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

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (the caller's X-Request-Id when sane), echoes it, and logs one line per request. */
export function requestContext(log: Logger): RequestHandler {
  // The line every request logs holds only the fields written below, none of them a secret: it skips
  // the redaction paths (their wildcards walk every logged object), which took half its cost.
  const requestLog = log.child({}, { redact: { paths: [], censor: '' } });
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    // The child logger is built only if something logs during the request: most requests log one line, below.
    let child: Logger | null = null;
    const ctx: RequestContext = {
      requestId,
      get log() {
        const p = ctx.principal;
        return (child ??= log.child(p ? { request_id: requestId, tenant_id: p.tenantId, member_id: p.memberId } : { request_id: requestId }));
      },
    };
    setContext(req, ctx);
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (!requestLog.isLevelEnabled('info')) return;
      // Path only: query strings may carry workspace ids and cursors but never secrets; bodies are never logged.
      const p = ctx.principal;
      requestLog.info(
        {
          request_id: requestId,
          ...(p ? { tenant_id: p.tenantId } : {}),
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}
