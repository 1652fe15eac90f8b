import express, { type Express, type Request, type RequestHandler } from 'express';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import { mountRoutes, type RouteDef, type RoutePipeline } from './routes.js';
import { contextOf, requestContext } from './context.js';
import { apiReference } from './docs.js';

export interface AppDeps {
  log: Logger;
  bodyLimit: string;
  routes: RouteDef[];
  pipeline: RoutePipeline;
  health: { live(): boolean; ready(): Promise<string | null> };
  /** proxies whose X-Forwarded-For sets req.ip (TRUST_PROXY); none by default */
  trustProxy?: string[];
  /** the OpenAPI document, served at GET /openapi.json and rendered at GET /docs */
  openapi?: { info?: { title?: string } };
  /** Prometheus metrics: the counting middleware and GET /metrics */
  metrics?: { middleware: RequestHandler; handler: RequestHandler };
}

// The raw bytes are kept for the idempotency fingerprint (spec 4.2 hashes the body as sent).
const keepRaw = (req: unknown, _res: unknown, buf: Buffer) => {
  contextOf(req as express.Request).rawBody = buf;
};

/** application/json and every application/*+json type. */
const JSON_TYPES = ['application/json', '+json'];

/** A body with bytes in it: a positive Content-Length, or chunked (its length is unknown until read). */
const hasBytes = (req: Request): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

export function bodyParsers(limit: string): { json: RequestHandler; raw: RequestHandler; jsonUpTo(limit: string): RequestHandler } {
  // Not strict: any JSON value parses, so a body that is valid JSON but not an
  // object is told apart from broken JSON (the route answers 400 invalid_body).
  const jsonUpTo = (max: string): RequestHandler => {
    const json = express.json({ limit: max, verify: keepRaw, strict: false, type: JSON_TYPES });
    // A body in another media type is refused rather than read as no body.
    // A request that declares no body at all (most GETs) skips the parser.
    return (req, res, next) =>
      req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
        ? next()
        : hasBytes(req) && !req.is(JSON_TYPES)
          ? next(new AppError(415, 'unsupported_media_type', 'Send the request body as JSON, with Content-Type: application/json.'))
          : json(req, res, next);
  };
  return {
    json: jsonUpTo(limit),
    jsonUpTo,
    // Signed routes read bytes: the signature covers the exact bytes, and a
    // non-JSON content type must reach the handler (it answers 401, not 415).
    raw: express.raw({ type: () => true, limit }),
  };
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy?.length ? deps.trustProxy : false);
  app.use(requestContext(deps.log));
  if (deps.metrics) {
    app.use(deps.metrics.middleware);
    app.get('/metrics', deps.metrics.handler);
  }

  app.get('/healthz', (_req, res) => void res.status(deps.health.live() ? 200 : 503).json({ status: deps.health.live() ? 'ok' : 'stopping' }));
  app.get('/readyz', (async (_req, res) => {
    const problem = await deps.health.ready();
    res.status(problem ? 503 : 200).json(problem ? { status: 'unavailable', reason: problem } : { status: 'ready' });
  }) as RequestHandler);

  if (deps.openapi) {
    const doc = JSON.stringify(deps.openapi);
    app.get('/openapi.json', (_req, res) => void res.type('application/json').send(doc));
    app.use(apiReference({ title: deps.openapi.info?.title ?? 'API reference', specUrl: '/openapi.json' }));
  }

  // Every API answer may hold personal data or a secret shown once (POST /api/keys): no browser or shared cache keeps
  // it, and no browser reads it as another media type than it says. Errors and 404s under /api too.
  app.use('/api', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use('/api', mountRoutes(deps.routes, deps.pipeline, bodyParsers(deps.bodyLimit)));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
