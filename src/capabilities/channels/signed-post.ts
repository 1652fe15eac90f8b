// The one door for posts a channel's sender signs with its webhook_secret (spec
// 5.5): a bridge's messages and ratings, an MTA's raw e-mail, any later kind.
// Each route says what it reads and what it files; this says who may post and
// how often, the same way for all of them:
//
// 1. One statement finds the channel (across workspaces: the id names the
//    workspace), the secrets that verify now (the rotation's grace included)
//    and whether these bytes were accepted before.
// 2. Every candidate secret is computed and compared in constant time, with
//    dummies when there are fewer than two, so a wrong media type, an unknown
//    or disabled channel, a channel of another kind and a bad signature cost
//    the same steps and get the same empty 401.
// 3. Only then, for a caller holding the secret: the timestamp within five
//    minutes (401 `stale_timestamp`), the channel's own rate limit (429, with
//    RateLimit fields on every answer from here on), the body read and checked.
// 4. Bytes accepted before (a bridge's retry, or a replay: the signature covers
//    the body, not the timestamp header) are answered as the duplicate they are,
//    202 and nothing filed, without filing anything again. Everything else is
//    filed as the channel's workspace, behind row-level security; a post that
//    filed or found something is remembered for twice the timestamp tolerance.
//    Past that, a replay with a fresh timestamp reaches the route's own rules,
//    which file nothing twice (a thread's external_id, a Message-ID, a rating's
//    signed time; an erased thread's tombstone).
import { randomUUID } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import type { Request } from 'express';
import { requestClient } from '../../api/command-context.js';
import type { RequestContext } from '../../api/context.js';
import { ResponseDoc, route, type Answer, type Responses, type RouteDef } from '../../api/routes.js';
import { errorListSchema } from '../../api/schemas.js';
import { assertStorable, bodyValidator } from '../../api/validation.js';
import { digestsEqual, hmacHex } from '../../platform/crypto/hmac.js';
import { AppError, BadRequest } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { CoreDeps } from '../capability.js';
import { ChannelSecrets, type FirstFiling } from './channel-secrets.js';
import type { ChannelRow } from './channels.read.js';

/**
 * Whether one of the channel's verifying secrets signed `raw`. No short-circuit, and at least two candidates (dummy
 * ones standing in): every candidate is computed and compared, so the time says nothing of which matched or how many
 * the channel has.
 */
function signedBy(verifying: string[], raw: Buffer, presented: string): boolean {
  let verified = false;
  for (const secret of [...verifying, DUMMY_SECRET, DUMMY_SECRET].slice(0, Math.max(2, verifying.length)))
    verified = digestsEqual(hmacHex(secret, raw), presented) && verifying.includes(secret) ? true : verified;
  return verified;
}

export const TIMESTAMP_TOLERANCE_S = 5 * 60;
/**
 * How long an accepted post's signature is remembered: a post accepted now may carry a timestamp up to the
 * tolerance ahead, and that timestamp stays acceptable for the tolerance after it.
 */
export const SIGNATURE_MEMORY_MS = 2 * TIMESTAMP_TOLERANCE_S * 1000;

const DUMMY_SECRET = randomUUID();
const NO_CHANNEL = '00000000-0000-4000-8000-000000000000';

/** A post whose signature and timestamp checked out: what a signed route files from. */
export interface SignedPost<B> {
  channel: ChannelRow;
  tenantId: string;
  /** the parsed and validated JSON body; the bytes themselves for a route that reads another media type */
  body: B;
  raw: Buffer;
  now: Date;
  req: Request;
  ctx: RequestContext;
  /** the command context's fields every filing shares: the channel acts, the sender's address goes to the audit log */
  as: { tenantId: string; now: Date; actor: { type: 'channel'; id: string }; requestId: string; client: ReturnType<typeof requestClient> };
}

export interface SignedRouteSpec<B> {
  path: string;
  summary: string;
  /** the media type the sender posts: application/json (the body checked against `body`) or another, read raw */
  mediaType: 'application/json' | 'message/rfc822';
  /** the JSON Schema of the body (application/json only) */
  body?: TSchema;
  /** the kinds of channel that post here; another kind's id answers the empty 401, like an unknown one */
  kinds?: ChannelRow['kind'][];
  /** what the route answers besides the door's 401 and 429 */
  responses: Responses;
  /** Files the post (in its workspace's scope). */
  file(post: SignedPost<B>): Promise<Answer>;
  /** The answer to bytes accepted before: the route's duplicate (202, nothing filed), naming what the first filed. */
  replayed(post: SignedPost<B>, first: FirstFiling): Promise<Answer>;
}

export function signedChannelRoute<B>(deps: CoreDeps, spec: SignedRouteSpec<B>): RouteDef {
  const { db, clock, sealer } = deps;
  const owner = deps.ownerDb ?? db; // the channel names the workspace: looked up as the owner role
  const secrets = new ChannelSecrets(sealer);
  const validate = spec.body ? bodyValidator<B>(spec.body) : null;
  const senderClock = spec.mediaType === 'application/json' ? 'the bridge' : 'the sender';
  return route({
    method: 'post',
    path: spec.path,
    permission: 'public',
    signed: 'channel',
    rawBody: true,
    rateClass: 'channel',
    summary: spec.summary,
    ...(spec.body ? { body: spec.body } : {}),
    responses: {
      ...spec.responses,
      401: new ResponseDoc(
        `No body when the content type is not ${spec.mediaType}, the channel is unknown${spec.kinds ? ` or not of kind ${spec.kinds.join(', ')}` : ''}, disabled, or the signature is wrong (the same empty answer for all). Only a caller whose signature verifies gets a body: the error envelope (\`stale_timestamp\`, see \`x-exceptional-content\`) when the timestamp is more than 5 minutes off.`,
        null,
        errorListSchema,
      ),
      429: new ResponseDoc(
        "`rate_limited`: the channel's own limit (RATE_LIMIT_CHANNEL per RATE_LIMIT_WINDOW_SECONDS), counted once the signature and timestamp check out; `Retry-After` says when its window ends.",
        errorListSchema,
      ),
    },
    async handle({ params, req, ctx }) {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const typed = req.is(spec.mediaType) === spec.mediaType;
      const id = params.id ?? '';
      const now = clock.now();
      const presented = (req.get('x-service-signature') ?? '').toLowerCase();
      // One statement for the channel, its verifying secrets and the memory of these bytes; a malformed id costs it too.
      const found = await deps.scope.outside(() => secrets.channelWithVerifying(owner, isUuid(id) ? id.toLowerCase() : NO_CHANNEL, now, presented));
      const channel = found && (!spec.kinds || spec.kinds.includes(found.channel.kind)) ? found.channel : undefined;
      const verifying = found && sealer.canSeal('channel') ? found.secrets : [];
      if (!typed || !channel || !signedBy(verifying, raw, presented)) return { status: 401 };
      await deps.scope.outside(() => secrets.sweepSignatures(owner, now));

      // Past this point the caller holds the secret, so precise errors are safe to give.
      const ts = req.get('x-service-timestamp');
      if (!ts || !/^\d{1,12}$/.test(ts)) throw new BadRequest('invalid_timestamp', 'x-service-timestamp must be Unix time in seconds.', 'x-service-timestamp');
      if (Math.abs(now.getTime() / 1000 - Number(ts)) > TIMESTAMP_TOLERANCE_S) {
        throw new AppError(
          401,
          'stale_timestamp',
          `x-service-timestamp is more than 5 minutes from the service clock; check ${senderClock}'s clock.`,
          'x-service-timestamp',
        );
      }
      // The channel's own budget, drawn only for a caller holding its secret (anyone else could drain it with unsigned posts).
      if (deps.rateLimits) {
        const fields = await deps.rateLimits.forChannel(channel.tenant_id, channel.id);
        for (const k in fields) req.res!.setHeader(k, fields[k]!);
      }
      const body = validate ? readJson(raw, validate) : (raw as B);
      const tenantId = channel.tenant_id;
      const post: SignedPost<B> = {
        channel,
        tenantId,
        body,
        raw,
        now,
        req,
        ctx,
        as: { tenantId, now, actor: { type: 'channel', id: channel.id }, requestId: ctx.requestId, client: requestClient(req) },
      };
      const first = found!.first;
      // The channel named the workspace: from here on the post acts as it, behind row-level security.
      return deps.scope.run(tenantId, async () => {
        if (first) return spec.replayed(post, first);
        const answer = await spec.file(post);
        const b = (answer.body ?? {}) as { conversation_id?: unknown; part_id?: unknown };
        if (answer.status === 201 || answer.status === 202) {
          await secrets.rememberSignature(db, {
            tenantId,
            channelId: channel.id,
            signature: presented,
            until: new Date(now.getTime() + SIGNATURE_MEMORY_MS),
            first: {
              conversationId: typeof b.conversation_id === 'string' ? b.conversation_id : null,
              partId: typeof b.part_id === 'string' ? b.part_id : null,
            },
          });
        }
        return answer;
      });
    },
  });
}

function readJson<B>(raw: Buffer, validate: (v: unknown) => B): B {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadRequest('invalid_json', 'The request body is not valid JSON.');
  }
  assertStorable(parsed); // the edge's text check, as on every JSON route
  return validate(parsed);
}
