import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from '../platform/logger.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import { requestContext } from './request-context.js';
import { mountRoutes, type RouteDef, type RoutePipeline } from './routes.js';
import { contextOf } from './context.js';

export interface AppDeps {
  log: Logger;
  bodyLimit: string;
  routes: RouteDef[];
  pipeline: RoutePipeline;
  health: { live(): boolean; ready(): Promise<string | null> };
  /** proxies whose X-Forwarded-For sets req.ip (TRUST_PROXY); none by default */
  trustProxy?: string[];
}

// The raw bytes are kept for the idempotency fingerprint (spec 4.2 hashes the body as sent).
const keepRaw = (req: unknown, _res: unknown, buf: Buffer) => {
  contextOf(req as express.Request).rawBody = buf;
};

export function bodyParsers(limit: string): { json: RequestHandler; raw: RequestHandler } {
  return {
    json: express.json({ limit, verify: keepRaw, strict: true }),
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

  app.get('/healthz', (_req, res) => void res.status(deps.health.live() ? 200 : 503).json({ status: deps.health.live() ? 'ok' : 'stopping' }));
  app.get('/readyz', (async (_req, res) => {
    const problem = await deps.health.ready();
    res.status(problem ? 503 : 200).json(problem ? { status: 'unavailable', reason: problem } : { status: 'ready' });
  }) as RequestHandler);

  app.use('/api', mountRoutes(deps.routes, deps.pipeline, bodyParsers(deps.bodyLimit)));
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
