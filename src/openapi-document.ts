// The service's OpenAPI document: the generator (src/api/openapi.ts) run over
// the routes every capability module mounts, plus the paths the app serves
// outside /api. The service serves it at GET /openapi.json; `npm run openapi`
// writes it to docs/openapi.json (a test fails when that file is stale).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RouteDef } from './api/routes.js';
import { buildOpenApi, type ExtraPath, type OpenApiDocument } from './api/openapi.js';
import { errorListSchema, object, oneOfStrings, str } from './api/schemas.js';
import type { CapabilityModule, CoreDeps } from './capabilities/capability.js';
import { additions, errorCatalogue, eventCatalogue, modules } from './capabilities/index.js';
import { loadConfig } from './config.js';

/** The project's package.json: the nearest one above this module, from src/ (tsx) or a compiled build alike. */
function projectPackage(): { name: string; version: string } {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };
    if (path.dirname(dir) === dir) throw new Error('package.json not found above the service');
  }
}
const pkg = projectPackage();

/**
 * The routes the modules mount, built without a database: route factories only
 * keep their dependencies for the handlers, which never run here. What shapes a
 * route's schemas (the event catalogue, the configuration) is real.
 */
export function documentedRoutes(extra: readonly CapabilityModule[] = []): RouteDef[] {
  const deps = { config: loadConfig({}), catalogue: eventCatalogue(), additions: additions(extra) } as CoreDeps;
  return [...modules, ...extra].flatMap((m) => m.routes?.(deps) ?? []);
}

const DESCRIPTION = `A multi-tenant help-desk backend, event-sourced: workspaces manage conversations, contacts and channels
through API keys or member sessions. Every change is a domain event with a per-workspace, gapless \`seq\`, readable as a
change feed (\`GET /api/events\`) and pushed, signed, to webhook endpoints.

Generated from the route definitions the service enforces: the request schemas here are the ones it validates with,
and the test suite checks every answer it receives against the answer schemas here.

- **Authentication:** \`Authorization: Bearer svc_…\` (an API key), or the \`svc_session\` cookie from \`POST /api/session\`
  with \`X-Service-Workspace\` naming the workspace. Each operation names the scope it needs (\`x-scope\`).
- **Scopes in security requirements:** an operation's \`security\` lists its scope on the \`apiKey\` and \`sessionCookie\`
  schemes too, e.g. \`{"apiKey": ["conversations:read"]}\`. OpenAPI 3.1 allows such a list of roles on a scheme of any
  type; OpenAPI 3.0 allowed it only for oauth2 and openIdConnect, so tools that read this document as 3.0 report each of
  these requirements as an error or warning (Spectral's \`oas3-operation-security-defined\`, for one). Read as 3.1, they are valid.
- **Errors:** every coded error is \`{"type":"error.list","request_id","errors":[{"code","message","field?"}]}\`
  (the empty 401 of the routes a channel signs aside).
- **Lists:** \`{"type":"list","data":[…],"pages":{"type":"pages","per_page","next":{"starting_after"}|null}}\`; pass
  \`starting_after\` for the next page.
- **Retries:** writes accept \`Idempotency-Key\`; a replayed answer carries \`Idempotent-Replayed: true\`.
- **Rate limits:** every answer to an authenticated request carries \`RateLimit-Policy\` and \`RateLimit\`
  (draft-ietf-httpapi-ratelimit-headers): per key (or signed-in member), per workspace, and for searches and exports
  per workspace too; the routes a channel signs (inbound, raw MIME, ratings) per channel. Over a limit: 429 \`rate_limited\` with \`Retry-After\`.
- **Events:** one JSON Schema per event type at \`GET /api/events/schemas\`; what webhooks and api channels are sent
  (envelopes, the \`x-service-signature\` header, retries) is described in AsyncAPI 3 (docs/asyncapi.json in the repository).`;

const EXTRA_PATHS: ExtraPath[] = [
  {
    method: 'get',
    path: '/healthz',
    summary: 'Liveness',
    description: 'The process is up (503 while it shuts down). No authentication.',
    tag: 'operations',
    content: { 'application/json': object({ status: oneOfStrings(['ok']) }) },
    other: { 503: { description: 'Shutting down.', schema: object({ status: oneOfStrings(['stopping']) }) } },
  },
  {
    method: 'get',
    path: '/readyz',
    summary: 'Readiness',
    description: 'The database and the event store answer. No authentication.',
    tag: 'operations',
    content: { 'application/json': object({ status: oneOfStrings(['ready']) }) },
    other: { 503: { description: 'A dependency does not answer.', schema: object({ status: oneOfStrings(['unavailable']), reason: str() }) } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of the API. No authentication.',
    tag: 'operations',
    content: { 'application/json': null },
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'This reference, in a browser',
    description: 'The API reference rendered from /openapi.json by Scalar, served by the service itself (no CDN). No authentication.',
    tag: 'operations',
    content: { 'text/html': str() },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition format (docs/operations.md, Metrics, lists them). When the operator sets METRICS_TOKEN it needs `Authorization: Bearer <METRICS_TOKEN>`; otherwise no authentication.',
    tag: 'operations',
    content: { 'text/plain': str() },
    other: { 401: { description: 'METRICS_TOKEN is set and the request does not carry it.', schema: errorListSchema } },
    security: [{ metricsToken: [] }, {}],
    scope: 'METRICS_TOKEN',
  },
];

export function openApiDocument(routes: readonly RouteDef[]): OpenApiDocument {
  return buildOpenApi(routes, {
    title: 'Conversation service API',
    version: pkg.version,
    description: DESCRIPTION,
    extraPaths: EXTRA_PATHS,
    errors: errorCatalogue(),
  });
}
