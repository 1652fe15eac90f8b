// The OpenAPI 3.1 document, generated from the route definitions the service
// mounts: the same permission, body and query JSON Schemas ajv enforces, the
// answers each route declares, and the error statuses every route of its kind
// can give. Served at GET /openapi.json and written to docs/openapi.json by
// `npm run openapi`; a test regenerates it and fails on any difference.
import { STATUS_CODES } from 'node:http';
import { KEY_FORMAT, KEY_MAX_LENGTH } from './idempotency/idempotency.js';
import { ResponseDoc, type RouteDef } from './routes.js';
import { errorListSchema } from './schemas.js';
import type { Schema } from './validation.js';
import type { ErrorCatalogue } from '../platform/errors.js';

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: Components;
};
type Operation = Record<string, unknown> & { responses: Record<string, unknown> };
interface Components {
  schemas: Record<string, Schema>;
  responses: Record<string, unknown>;
  headers: Record<string, unknown>;
  securitySchemes: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

/** Paths the app mounts outside /api (src/api/app.ts), described by hand beside the generated ones. */
export interface ExtraPath {
  method: 'get';
  path: string;
  summary: string;
  description: string;
  tag: string;
  /** media type → schema (null: any content of that type) */
  content: Record<string, Schema | null>;
  /** statuses besides 200 */
  other?: Record<number, { description: string; schema?: Schema }>;
  security?: Record<string, string[]>[];
  /** what `x-scope` says (default public) */
  scope?: string;
}

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  /** routes are mounted under this prefix */
  prefix?: string;
  extraPaths?: ExtraPath[];
  /** the error catalogue: the codes each shared error answer can carry */
  errors?: ErrorCatalogue;
}

/**
 * The shared error answers: status → component name and what it means. The codes
 * each can carry come from the error catalogue (OpenApiOptions.errors), never
 * listed here by hand: a code declared once is documented everywhere.
 */
const ERRORS: Record<number, { name: string; lead: string }> = {
  400: { name: 'BadRequest', lead: 'The request is malformed, or names something the workspace does not have.' },
  401: { name: 'Unauthorized', lead: 'Not authenticated.' },
  403: { name: 'Forbidden', lead: 'Authenticated but not allowed.' },
  404: { name: 'NotFound', lead: "Not found: including every other workspace's ids and malformed ids." },
  408: { name: 'RequestTimeout', lead: 'The request was not received in time; the connection is closed.' },
  409: { name: 'Conflict', lead: 'A conflict with the current state, or with a request still running.' },
  410: { name: 'Gone', lead: 'Gone for good.' },
  413: { name: 'PayloadTooLarge', lead: 'The body is too large.' },
  415: { name: 'UnsupportedMediaType', lead: 'The body is not JSON in UTF-8.' },
  422: { name: 'Unprocessable', lead: 'Understood, but it cannot be done.' },
  429: { name: 'TooManyRequests', lead: 'Too many requests; `Retry-After` says when to try again.' },
  431: { name: 'HeadersTooLarge', lead: 'The request line and headers are too large; the connection is closed.' },
  500: { name: 'InternalError', lead: 'A bug, logged with the request id.' },
  503: {
    name: 'ServiceUnavailable',
    lead: 'The database is unavailable for a moment; retry after `Retry-After` seconds (a write with the same Idempotency-Key is applied at most once).',
  },
};

/**
 * The rate-limit fields (draft-ietf-httpapi-ratelimit-headers; src/api/rate-limit/rate-limits.ts). Sent on every
 * answer to an authenticated request (not on a 401: no caller is known) and on the signed routes' answers
 * once its signature verified; not on public routes otherwise. The shared error answers declare them for that reason.
 */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};
const RETRY_AFTER = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };
/** The shared error answers an authenticated request can get once its caller is known (these carry the rate-limit fields; 409, 429, 503 Retry-After too). */
const AFTER_CALLER = new Set([400, 403, 404, 409, 410, 413, 415, 422, 429, 500, 503]);
/** Whether a route's answers carry the rate-limit fields, and it can answer 429 `rate_limited`. */
const rateLimited = (def: RouteDef): boolean => def.permission !== 'public' || def.rateClass !== undefined;

/** A shared error answer's description: its lead, then every code the catalogue gives that status. */
function errorDescription(status: number, catalogue: ErrorCatalogue | undefined): string {
  const codes = catalogue?.ofStatus(status) ?? [];
  return codes.length === 0
    ? ERRORS[status]!.lead
    : `${ERRORS[status]!.lead} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}. What each means: docs/errors.md.`;
}

/** The error statuses every route of this kind can give, whatever it declares. */
export function errorStatuses(def: RouteDef): number[] {
  // 408 and 431 come from the HTTP server itself, before any route (src/api/error-handler.ts).
  // 503 when the database is unavailable, on any route that reaches it (all of them do).
  const s = new Set<number>([400, 408, 413, 431, 500, 503]);
  // JSON routes refuse other media types; the signed raw route answers those 401.
  if (!def.rawBody && !def.file) s.add(415);
  if (def.permission !== 'public') [401, 403, 404].forEach((x) => s.add(x));
  // An id in the path that names nothing of the caller's is 404 (the signed route answers 401 instead).
  if (def.path.includes(':') && !def.rawBody) s.add(404);
  // Authenticated writes run through Idempotency-Key handling.
  if (def.permission !== 'public' && def.method !== 'get') [409, 422].forEach((x) => s.add(x));
  // Rate limits: every authenticated route, and a public one that applies its own (the routes a channel signs).
  if (rateLimited(def)) s.add(429);
  return [...s];
}

/** Express `/conversations/:id/reply` → OpenAPI `/conversations/{id}/reply`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const paramsOf = (expressPath: string): string[] => [...expressPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

function operationId(def: RouteDef): string {
  const words = def.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `by_${seg.slice(1)}` : seg))
    .flatMap((seg) => seg.split(/[-_]/));
  return [def.method, ...words].map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Moves every schema with a `title` into components.schemas and refers to it there. */
class SchemaHoister {
  constructor(private readonly components: Record<string, Schema>) {}

  hoist(schema: unknown): unknown {
    if (Array.isArray(schema)) return schema.map((x) => this.hoist(x));
    if (schema === null || typeof schema !== 'object') return schema;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) {
      // `properties` maps names to schemas; any of them may be named `title` or `const`.
      out[k] =
        k === 'properties' || k === '$defs'
          ? Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, this.hoist(s)]))
          : k === 'const' || k === 'enum' || k === 'default'
            ? v
            : this.hoist(v);
    }
    const title = (schema as Schema).title;
    if (typeof title !== 'string') return out;
    const known = this.components[title];
    if (known && JSON.stringify(known) !== JSON.stringify(out)) throw new Error(`two different schemas are titled ${title}; give one another title`);
    this.components[title] = out;
    return { $ref: `#/components/schemas/${title}` };
  }
}

function describePermission(def: RouteDef): string {
  if (def.signed === 'channel') {
    return "**Authentication:** the channel's signature: `x-service-signature` is the hex HMAC-SHA256 of the exact body bytes keyed with the channel's `webhook_secret`, `x-service-timestamp` the Unix time in seconds (at most 5 minutes off). A wrong content type, an unknown channel and a bad signature all answer the same empty 401. Bytes accepted before (a retry, or a replay under a new timestamp) answer 202 and file nothing; the channel's own rate limit applies once the signature verifies.";
  }
  if (def.permission === 'public') return '**Authentication:** none.';
  const who = def.freshSession
    ? 'a session cookie signed in within the last 15 minutes (an API key cannot do this)'
    : 'an API key (`Authorization: Bearer svc_…`) or a session cookie with `X-Service-Workspace`';
  const scope = def.permission === 'authenticated' ? 'none (any authenticated caller)' : `\`${def.permission}\``;
  return `**Scope:** ${scope}. **Authentication:** ${who}.`;
}

function securityOf(def: RouteDef): Record<string, string[]>[] {
  if (def.signed === 'channel') return [{ channelSignature: [], channelTimestamp: [] }];
  if (def.permission === 'public') return [];
  const scopes = def.permission === 'authenticated' ? [] : [def.permission];
  const session = { sessionCookie: scopes, workspaceHeader: [] };
  return def.freshSession ? [session] : [{ apiKey: scopes }, session];
}

function responseObject(status: number, value: Schema | null | ResponseDoc, hoister: SchemaHoister): unknown {
  if (value === errorListSchema && ERRORS[status]) return { $ref: `#/components/responses/${ERRORS[status]!.name}` };
  const doc = value instanceof ResponseDoc ? value : new ResponseDoc(STATUS_CODES[status] ?? String(status), value);
  if (doc.schema === null) {
    // Bodyless, as tools read it; the one case with a body stays machine-readable beside it.
    const exceptional = doc.exceptionalBody ? { 'x-exceptional-content': { 'application/json': { schema: hoister.hoist(clone(doc.exceptionalBody)) } } } : {};
    return { description: doc.description, ...exceptional };
  }
  return { description: doc.description, content: { [doc.mediaType]: { schema: hoister.hoist(clone(doc.schema)) } } };
}

export function buildOpenApi(routes: readonly RouteDef[], o: OpenApiOptions): OpenApiDocument {
  const prefix = o.prefix ?? '/api';
  const components: Components = {
    schemas: {},
    responses: {},
    headers: {
      RateLimitPolicy: {
        description:
          'The rate-limit policies this request draws from (draft-ietf-httpapi-ratelimit-headers: a Structured Field List of quoted policy names with `q`, the requests a window admits, and `w`, the window in seconds), e.g. `"key";q=10000;w=60, "workspace";q=25000;w=60`. `key`: the API key (or the signed-in member); `workspace`: all of the workspace\'s callers; `expensive`: the workspace\'s searches, exports, custom views\' lists and counts (the counts one unit per custom view, plus one); `channel`: the routes a channel signs (inbound, raw MIME, ratings), per channel. Sent on every answer to an authenticated request except a 401, and on a signed route\'s answers once the signature verified. See docs/api-guide.md (Rate limits).',
        schema: { type: 'string' },
      },
      RateLimit: {
        description:
          'Where each policy of `RateLimit-Policy` stands, in the same order: `r`, the requests left in the current window, and `t`, the seconds until it ends, e.g. `"key";r=9998;t=41, "workspace";r=24990;t=41`. With several API processes `r` is what this process knows (it may be high by what the others took since). A 429 `rate_limited` names the used-up policy with `r=0` (a request costing several units, the counts, may find fewer left than it costs), and `Retry-After` says when its window ends.',
        schema: { type: 'string' },
      },
    },
    parameters: {
      IdempotencyKey: {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes the write safe to retry: the same key with the same method, path and body replays the first answer byte for byte (with `Idempotent-Replayed: true`); another body is 422 `idempotency_key_reused`; while the first request runs, 409 `idempotency_key_in_flight`. Keys are scoped to the caller and kept 24 hours.',
        schema: { type: 'string', minLength: 1, maxLength: KEY_MAX_LENGTH, pattern: KEY_FORMAT.source },
      },
    },
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'svc_<workspace id, 32 hex>_<43 base64url>',
        description:
          "An API key: `Authorization: Bearer svc_…`. Its workspace is the one inside the key; effective scopes are the key's scopes ∩ what the member's current role allows.",
      },
      sessionCookie: {
        type: 'apiKey',
        in: 'cookie',
        name: 'svc_session',
        description:
          'The session cookie set by `POST /api/session` (HttpOnly, 14 days). The request names its workspace with `X-Service-Workspace` (or `?workspace=` on reads); writes must send the header.',
      },
      workspaceHeader: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Service-Workspace',
        description: 'The workspace a session request acts in (a workspace the user is not a member of answers 404 `workspace_not_found`).',
      },
      channelSignature: {
        type: 'apiKey',
        in: 'header',
        name: 'x-service-signature',
        description: "Hex HMAC-SHA256 of the raw request body, keyed with the channel's `webhook_secret`.",
      },
      channelTimestamp: {
        type: 'apiKey',
        in: 'header',
        name: 'x-service-timestamp',
        description: 'Unix time in seconds; at most 5 minutes from the service clock.',
      },
      metricsToken: { type: 'http', scheme: 'bearer', description: "The operator's METRICS_TOKEN, when it is set (GET /metrics only)." },
    },
  };
  const hoister = new SchemaHoister(components.schemas);
  for (const [status, e] of Object.entries(ERRORS)) {
    components.responses[e.name] = {
      description: errorDescription(Number(status), o.errors),
      content: { 'application/json': { schema: hoister.hoist(clone(errorListSchema)) } },
      ...(AFTER_CALLER.has(Number(status))
        ? {
            headers: {
              ...([409, 429, 503].includes(Number(status)) ? { 'Retry-After': RETRY_AFTER } : {}),
              ...(AFTER_CALLER.has(Number(status)) ? RATE_LIMIT_HEADERS : {}),
            },
          }
        : {}),
    };
  }

  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const def of routes) {
    const p = `${prefix}${openApiPath(def.path)}`;
    const tag = def.path.split('/').filter(Boolean)[0] ?? 'api';
    tags.add(tag);
    // Ids are UUIDs; the few other path parameters (an attachment's index, a download's token) are strings.
    const parameters: unknown[] = paramsOf(def.path).map((name) =>
      name === 'id' || name.endsWith('_id')
        ? {
            name,
            in: 'path',
            required: true,
            description: def.rawBody
              ? "The channel's id. An unknown one answers the same empty 401 as a bad signature."
              : "A UUID. A malformed id, or another workspace's, answers 404.",
            schema: { type: 'string', format: 'uuid' },
          }
        : { name, in: 'path', required: true, schema: { type: 'string', maxLength: 512 } },
    );
    const query = def.query as { properties?: Record<string, Schema>; required?: string[] } | undefined;
    for (const [name, schema] of Object.entries(query?.properties ?? {})) {
      const { description, ...rest } = clone(schema);
      parameters.push({
        name,
        in: 'query',
        required: query?.required?.includes(name) ?? false,
        ...(description
          ? { description }
          : name === 'workspace'
            ? { description: 'The workspace of a session caller (instead of X-Service-Workspace); ignored for API keys.' }
            : {}),
        schema: hoister.hoist(rest),
      });
    }
    const idempotent = def.permission !== 'public' && def.method !== 'get';
    if (idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });

    const responses: Record<string, unknown> = {};
    const declared = def.responses ?? {};
    const statuses = [...new Set([...Object.keys(declared).map(Number), ...errorStatuses(def)])].sort((a, b) => a - b);
    for (const status of statuses) {
      const value = status in declared ? declared[status]! : errorListSchema;
      const response = responseObject(status, value, hoister) as Record<string, unknown>;
      // An answer of its own (not a shared one, which declares them itself) carries the rate-limit fields too.
      if (rateLimited(def) && status !== 401 && !('$ref' in response)) {
        response.headers = { ...(status === 429 ? { 'Retry-After': RETRY_AFTER } : {}), ...RATE_LIMIT_HEADERS };
      }
      responses[String(status)] = response;
    }
    const op: Operation = {
      operationId: operationId(def),
      summary: def.summary ?? `${def.method.toUpperCase()} ${p}`,
      description: [describePermission(def), idempotent ? 'Safe to retry with an `Idempotency-Key`.' : ''].filter(Boolean).join(' '),
      tags: [tag],
      'x-scope': def.permission,
      ...(def.freshSession ? { 'x-fresh-session': true } : {}),
      security: securityOf(def),
      ...(parameters.length ? { parameters } : {}),
      ...(def.file
        ? {
            requestBody: {
              required: true,
              description: def.file.description,
              content: {
                'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
                'multipart/form-data': {
                  schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
                },
              },
            },
          }
        : {}),
      ...(def.body
        ? {
            requestBody: {
              required: true,
              description: def.rawBody ? 'The exact bytes are signed; send them as they were signed.' : undefined,
              content: { 'application/json': { schema: hoister.hoist(clone({ type: 'object', ...def.body })) } },
            },
          }
        : {}),
      responses,
    };
    if (op.requestBody && (op.requestBody as { description?: string }).description === undefined)
      delete (op.requestBody as { description?: string }).description;
    (paths[p] ??= {})[def.method] = op;
  }

  for (const x of o.extraPaths ?? []) {
    tags.add(x.tag);
    const content = Object.fromEntries(Object.entries(x.content).map(([type, schema]) => [type, schema ? { schema: hoister.hoist(clone(schema)) } : {}]));
    const other = Object.fromEntries(
      Object.entries(x.other ?? {}).map(([status, r]) => [
        status,
        { description: r.description, ...(r.schema ? { content: { 'application/json': { schema: hoister.hoist(clone(r.schema)) } } } : {}) },
      ]),
    );
    (paths[x.path] ??= {})[x.method] = {
      operationId: operationId({ method: x.method, path: x.path } as RouteDef),
      summary: x.summary,
      description: x.description,
      tags: [x.tag],
      'x-scope': x.scope ?? 'public',
      security: x.security ?? [],
      responses: { '200': { description: 'OK', content }, ...other },
    };
  }

  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((k) => [k, paths[k]!]),
  );
  const sortedSchemas = Object.fromEntries(
    Object.keys(components.schemas)
      .sort()
      .map((k) => [k, components.schemas[k]!]),
  );
  return {
    openapi: '3.1.0',
    info: { title: o.title, version: o.version, description: o.description },
    servers: [{ url: '/', description: 'The service that serves this document' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: sortedPaths,
    components: { ...components, schemas: sortedSchemas },
  };
}
