// Routes are data: method, path, the permission they need, the schemas of what
// they accept, and a handler that returns an Answer. Mounting refuses to start
// when a route names no permission, so no endpoint is open by accident.
import express, { Router, type Request, type Response, type NextFunction, type RequestHandler } from 'express';
import { isScope, type Scope } from './scopes.js';
import type { Answer, WriteSession } from './answer.js';

export type { Answer, AnswerSink, WriteSession } from './answer.js';
import { AppError, BadRequest, Forbidden } from '../platform/errors.js';
import { contextOf, type Principal, type RequestContext } from './context.js';
import { assertStorableRequest, bodyValidator, queryValidator, type Schema } from './validation.js';
import { rateClassOf, type RateClass } from './rate-limit/rate-limits.js';

export type Permission = Scope | 'public' | 'authenticated';

/**
 * The path parameters a route's path names (`/conversations/:id/parts/:part_id` → `{ id, part_id }`), each a
 * string: Express matched the path, so each is there. A path that is not a literal type gives a record.
 */
export type PathParams<P extends string> = string extends P
  ? Record<string, string>
  : P extends `${string}:${infer Name}/${infer Rest}`
    ? { [K in Name | keyof PathParams<Rest>]: string }
    : P extends `${string}:${infer Name}`
      ? { [K in Name]: string }
      : Record<never, string>;

export interface Call<B = any, Q = any, P extends string = string> {
  params: PathParams<P>;
  query: Q;
  body: B;
  ctx: RequestContext;
  principal: Principal;
  req: Request;
  /** how this request mints ids and stores its answer (see WriteSession): keyed by its Idempotency-Key, or not */
  write: WriteSession;
}

/** An answer with more to say than its body's schema (OpenAPI). */
export class ResponseDoc {
  constructor(
    readonly description: string,
    /** the JSON Schema of the body; null for none */
    readonly schema: Schema | null,
    /**
     * With `schema` null: the body an otherwise empty answer carries in one case its
     * description names (the signed inbound route's 401 is empty, except `stale_timestamp`).
     * The document declares the answer bodyless and puts this under `x-exceptional-content`.
     */
    readonly exceptionalBody: Schema | null = null,
    /** the body's media type, where it is not JSON (the audit export's NDJSON) */
    readonly mediaType = 'application/json',
  ) {}
}

/** status → JSON Schema of the body, or null for an answer without one. */
export type Responses = Record<number, Schema | null | ResponseDoc>;

export interface RouteDef<B = any, Q = any, P extends string = string> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: P;
  permission: Permission;
  /** one line for the API reference (docs/openapi.json) */
  summary?: string;
  /**
   * What the route answers: status → schema of the body (null: no body). The
   * error statuses every route of its kind can give are added by the OpenAPI
   * generator (src/api/openapi.ts); list here only those peculiar to the route.
   */
  responses?: Responses;
  /** minting and rotating keys need a session minted within the last 15 minutes (spec 5.3.6) */
  freshSession?: boolean;
  /** the body's JSON Schema; a rawBody route validates it itself (after checking the signature) */
  body?: Schema;
  query?: Schema;
  /** the handler gets the body as bytes (Buffer) instead of parsed JSON */
  rawBody?: boolean;
  /**
   * The body is a file (the uploads route): its bytes as they came, in any media type, up to `maxBytes` (and what
   * a multipart form's framing adds); a larger one is refused 413 with `tooLarge`'s code, by its Content-Length
   * before a byte is read when it declares one. The handler gets a Buffer.
   */
  file?: { maxBytes: number; tooLarge: { code: string; message: string }; description: string };
  /** a JSON body may be this large (an express size, '512kb'), where the route needs more than BODY_LIMIT (a bulk action's 10,000 ids) */
  bodyLimit?: string;
  /** public, but signed by a channel's sender (channels' signedChannelRoute): documented with the signature's headers */
  signed?: 'channel';
  /**
   * Which rate-limit budgets it draws from (src/api/rate-limit/rate-limits.ts). Authenticated routes are limited
   * before anything else reads the request: `read` for a GET and `write` otherwise unless they declare `expensive`
   * (searches, exports). A public route is not limited, unless it declares `channel` and applies that itself.
   * A function decides by the request line (path and query; the body is not read yet): the conversations list is
   * a read, and `expensive` when it lists a custom view.
   */
  rateClass?: RateClass | ((req: Request) => RateClass);
  /**
   * How many units of the `expensive` budget one request spends (1 when absent), for a route whose work grows
   * with something cheap to count first: the counts compute one count per custom view the caller sees. Asked
   * once the caller is known, as their workspace, before the rest of the request is read, and only while rate
   * limits are on. `key` and `workspace` count requests: one each, whatever the cost.
   */
  rateCost?: (principal: Principal) => Promise<number>;
  handle(call: Call<B, Q, P>): Promise<Answer>;
}

export interface RoutePipeline {
  /** resolves the caller; throws Unauthorized / NotFound */
  authenticate(req: Request): Promise<Principal>;
  /**
   * Draws one request from the caller's rate-limit budgets (`cost` units of the expensive one, when it draws from
   * it and says so): the RateLimit-Policy and RateLimit fields to send with the answer, or a 429 `rate_limited`
   * carrying them with Retry-After. Runs before the body is read.
   */
  limit(principal: Principal, rateClass: RateClass, cost?: () => Promise<number>): Promise<Record<string, string>>;
  /** throws when the session is too old for this route */
  requireFreshSession(principal: Principal): void;
  /** wraps a non-GET handler: with an Idempotency-Key it reserves the key, hands `run` a keyed write session, and stores or replays the answer */
  idempotent(req: Request, principal: Principal, run: (write: WriteSession) => Promise<Answer>): Promise<Answer & { replayed?: boolean }>;
  /** the write session of a request without an Idempotency-Key (GETs, public routes): random ids, no answer sink */
  unkeyed(): WriteSession;
  /** runs an authenticated request as its principal's tenant, behind row-level security */
  scoped<T>(principal: Principal, run: () => Promise<T>): Promise<T>;
}

export function route<B = any, Q = any, P extends string = string>(def: RouteDef<B, Q, P>): RouteDef<B, Q> {
  return def as unknown as RouteDef<B, Q>;
}

/**
 * A handler's call. A public route has no principal: reading it there is a bug in the route, said at once, not an
 * undefined that a type promised away.
 */
function callOf(base: Omit<Call, 'principal'>, principal: Principal | undefined, route: string): Call {
  if (principal) return { ...base, principal };
  return Object.defineProperty({ ...base }, 'principal', {
    enumerable: false,
    get(): never {
      throw new Error(`${route} is public: it has no principal`);
    },
  }) as Call;
}

function assertPermission(def: RouteDef): void {
  const p = def.permission as unknown;
  if (p !== 'public' && p !== 'authenticated' && !isScope(p)) {
    throw new Error(`route ${def.method.toUpperCase()} ${def.path} declares no valid permission (got ${JSON.stringify(p)}); refusing to start`);
  }
}

/**
 * Writes an answer straight to the response: its JSON is already a string, so
 * Express's send (an ETag hashed over every body, charset and freshness checks)
 * has nothing to add for an API answer.
 */
export async function sendAnswer(res: Response, answer: Answer & { replayed?: boolean; raw?: string }): Promise<void> {
  if (answer.headers) for (const k in answer.headers) res.setHeader(k, answer.headers[k]!);
  if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.statusCode = answer.status;
  if (answer.stream) {
    try {
      await sendStream(res, answer.stream);
    } catch (e) {
      // Failed before a byte left: the error envelope goes out instead, without the download's headers.
      if (!res.headersSent) for (const k of Object.keys(answer.headers ?? {})) res.removeHeader(k);
      throw e;
    }
    return;
  }
  if ((answer.body === undefined && answer.raw === undefined) || answer.status === 204 || answer.status === 304) {
    res.end();
    return;
  }
  const json = answer.raw ?? JSON.stringify(answer.body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/**
 * Writes a streamed body, waiting for 'drain' when the socket's buffer is full.
 * A client that goes away stops the producer (its iterator is closed). A
 * producer that fails once bytes are out cannot change the status any more: the
 * connection is cut, so the client sees a truncated body, never a complete-looking one.
 */
async function sendStream(res: Response, stream: AsyncIterable<string | Buffer>): Promise<void> {
  if (!res.hasHeader('content-type')) res.type('application/json');
  let gone = false;
  const onClose = () => (gone = true);
  res.once('close', onClose);
  try {
    for await (const chunk of stream) {
      if (gone) break;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
    // A client that went away leaves nothing to finish: drop the connection (never keep-alive a half-sent answer).
    if (gone) res.destroy();
    else res.end();
  } catch (e) {
    if (res.headersSent) res.destroy(e as Error);
    throw e;
  } finally {
    res.off('close', onClose);
  }
}

/**
 * The body of a write that takes none: nothing, or `{}`. Any field is refused
 * like an unknown field of any other route (400 `unknown_field`), never dropped.
 */
const NO_BODY: Schema = { additionalProperties: false };

/** What a multipart form may add to a file's bytes (boundaries, part headers, small fields) before the route's cap refuses it. */
const FORM_FRAMING_BYTES = 64 * 1024;

/** The parser of a file route (RouteDef.file): its bytes, with its own cap and refusal; kept for the idempotency fingerprint. */
function fileParser(file: NonNullable<RouteDef['file']>): RequestHandler {
  const limit = file.maxBytes + FORM_FRAMING_BYTES;
  const raw = express.raw({ type: () => true, limit });
  const tooLarge = () => new AppError(413, file.tooLarge.code, file.tooLarge.message);
  return (req, res, next) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) return next(tooLarge());
    raw(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') return next(tooLarge());
      if (!err && Buffer.isBuffer(req.body)) contextOf(req).rawBody = req.body;
      next(err);
    });
  };
}

export function mountRoutes(
  defs: RouteDef[],
  pipeline: RoutePipeline,
  parsers: { json: RequestHandler; raw: RequestHandler; jsonUpTo?(limit: string): RequestHandler },
): Router {
  const router = Router();
  for (const def of defs) {
    assertPermission(def);
    const validateBody = def.rawBody || def.file ? null : def.body ? bodyValidator(def.body) : def.method !== 'get' ? bodyValidator(NO_BODY) : null;
    const validateQuery = def.query ? queryValidator(def.query) : null;
    const tag: RequestHandler = (req, _res, next) => {
      contextOf(req).route = `${req.baseUrl}${def.path}`;
      next();
    };
    // An authenticated route knows its caller and draws from the caller's rate limits before the body is
    // read: a refused request costs no parsing, and every answer from here on (a 400 for broken JSON
    // included) carries the RateLimit fields. The text check of the path, query and headers comes first,
    // since the authenticator reads them; the body's is made once it is parsed.
    const caller: RequestHandler | null =
      def.permission === 'public'
        ? null
        : async (req, res, next) => {
            try {
              assertStorableRequest(req);
              const principal = await pipeline.authenticate(req);
              contextOf(req).principal = principal;
              const cost = def.rateCost ? () => pipeline.scoped(principal, () => def.rateCost!(principal)) : undefined;
              const fields = await pipeline.limit(principal, rateClassOf(def, req), cost);
              for (const k in fields) res.setHeader(k, fields[k]!);
              next();
            } catch (e) {
              next(e);
            }
          };
    const edge = caller ? [tag, caller] : [tag];
    const parser = def.file
      ? fileParser(def.file)
      : def.rawBody
        ? parsers.raw
        : def.bodyLimit && parsers.jsonUpTo
          ? parsers.jsonUpTo(def.bodyLimit)
          : parsers.json;
    router[def.method](def.path, ...edge, parser, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const ctx = contextOf(req);
        // The edge checks of a JSON route, before anything else looks at the body.
        // A signed raw-body route answers its own way (an identical 401 before the
        // signature verifies) and runs the same text check itself afterwards.
        if (!def.rawBody && !def.file) {
          if (req.body !== undefined && (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))) {
            throw new BadRequest('invalid_body', 'The request body must be a JSON object.');
          }
          assertStorableRequest(req);
        }
        const principal: Principal | undefined = ctx.principal;
        if (principal && def.permission !== 'public') {
          if (def.permission !== 'authenticated' && !principal.scopes.includes(def.permission)) {
            throw new Forbidden('missing_scope', `This request needs the scope ${def.permission}.`);
          }
          if (def.freshSession) pipeline.requireFreshSession(principal);
        }
        const query = validateQuery ? validateQuery({ ...(req.query as object) }) : req.query;
        const validated = validateBody ? validateBody(req.body ?? {}) : req.body;
        // A route without a body schema gets what was sent (nothing, or {}), as before.
        const body = def.body ? validated : req.body;
        const callWith = (write: WriteSession): Call =>
          callOf({ params: req.params as Record<string, string>, query, body, ctx, req, write }, principal, `${def.method.toUpperCase()} ${def.path}`);
        // The whole of an authenticated request, idempotency included, runs as its tenant: its
        // pooled connections keep one role and setting instead of switching on every step.
        const run =
          principal && def.method !== 'get'
            ? () => pipeline.idempotent(req, principal, (write) => def.handle(callWith(write)))
            : () => def.handle(callWith(pipeline.unkeyed()));
        const answer = principal ? await pipeline.scoped(principal, run) : await run();
        await sendAnswer(res, answer);
      } catch (e) {
        next(e);
      }
    });
  }
  return router;
}
