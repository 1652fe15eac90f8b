// POST /api/channels/:id/ratings: a bridge posts the customer's rating of a thread,
// signed with the channel's webhook_secret exactly as it signs inbound messages
// (conversations' inbound.route.ts): the same empty 401 for a wrong content type,
// an unknown channel and a bad signature, after the same steps, so neither the
// answer nor its timing tells them apart; precise errors only for a verified caller.
import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { requestClient } from '../../api/command-context.js';
import { ResponseDoc, route, type Answer, type RouteDef } from '../../api/routes.js';
import { errorListSchema } from '../../api/schemas.js';
import { assertStorable } from '../../api/text-guard.js';
import { bodyValidator } from '../../api/validation.js';
import { digestsEqual, hmacHex } from '../../platform/crypto/hmac.js';
import { AppError, BadRequest } from '../../platform/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { CoreDeps } from '../capability.js';
import { ChannelSecrets } from '../channels/index.js';
import { rateConversation, type RatedConversationLookup } from './csat.commands.js';
import { renderRating } from './csat.read.js';
import { Rating, ratingAnswerSchema } from './csat.schemas.js';

const TIMESTAMP_TOLERANCE_S = 5 * 60;
const DUMMY_SECRET = randomUUID();
const NO_CHANNEL = '00000000-0000-4000-8000-000000000000';

const BridgeRating = Type.Object(
  { external_id: Type.String({ minLength: 1, maxLength: 255, description: "The bridge's thread id, as its inbound posts name it." }), ...Rating.properties },
  { additionalProperties: false },
);
const validate = bodyValidator<Static<typeof BridgeRating>>(BridgeRating);

/** The conversation a channel filed for a bridge's thread (conversations' read, handed in): null when there is none. */
export type ThreadLookup = (db: CoreDeps['db'], tenantId: string, channelId: string, externalId: string) => Promise<{ id: string } | null>;

export function bridgeRatingRoute(deps: CoreDeps, lookups: { conversation: RatedConversationLookup; thread: ThreadLookup }): RouteDef {
  const { db, shell, clock, ids, sealer } = deps;
  const owner = deps.ownerDb ?? db; // the channel names the tenant: looked up as the owner role
  const channelSecrets = new ChannelSecrets(sealer);
  return route({
    method: 'post',
    path: '/channels/:id/ratings',
    permission: 'public',
    rawBody: true,
    summary: "Post a customer's satisfaction rating (CSAT, 1 to 5) of a thread as the channel's bridge (signed like inbound posts)",
    body: BridgeRating,
    responses: {
      201: ratingAnswerSchema,
      401: new ResponseDoc(
        'No body when the content type is not application/json, the channel is unknown or the signature is wrong (the same empty answer for all three). Only a caller whose signature verifies gets a body: the error envelope (`stale_timestamp`) when the timestamp is more than 5 minutes off.',
        null,
        errorListSchema,
      ),
      404: errorListSchema,
      410: errorListSchema,
    },
    async handle({ params, req, ctx }) {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const jsonType = req.is('application/json') === 'application/json';
      const id = params.id ?? '';
      const now = clock.now();
      const found = await channelSecrets.channelWithVerifying(owner, isUuid(id) ? id.toLowerCase() : NO_CHANNEL, now);
      const channel = found?.channel;
      const secrets = found && sealer.canSeal('channel') ? found.secrets : [];
      const presented = req.get('x-service-signature') ?? '';
      let verified = false;
      for (const secret of [...secrets, DUMMY_SECRET, DUMMY_SECRET].slice(0, Math.max(2, secrets.length))) {
        // No short-circuit: every candidate is computed and compared.
        verified = digestsEqual(hmacHex(secret, raw), presented.toLowerCase()) && secrets.includes(secret) ? true : verified;
      }
      if (!jsonType || !channel || !verified) return { status: 401 };

      const ts = req.get('x-service-timestamp');
      if (!ts || !/^\d{1,12}$/.test(ts)) throw new BadRequest('invalid_timestamp', 'x-service-timestamp must be Unix time in seconds.', 'x-service-timestamp');
      if (Math.abs(now.getTime() / 1000 - Number(ts)) > TIMESTAMP_TOLERANCE_S) {
        throw new AppError(
          401,
          'stale_timestamp',
          'x-service-timestamp is more than 5 minutes from the service clock; check the bridge clock.',
          'x-service-timestamp',
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new BadRequest('invalid_json', 'The request body is not valid JSON.');
      }
      assertStorable(parsed);
      const body = validate(parsed);
      const tenantId: string = channel.tenant_id;
      return deps.scope.run(tenantId, async (): Promise<Answer> => {
        const thread = await lookups.thread(db, tenantId, channel.id, body.external_id);
        const conversationId = thread?.id ?? NO_CHANNEL;
        const [rated] = await shell.execute(
          { tenantId, now, actor: { type: 'channel', id: channel.id }, requestId: ctx.requestId, client: requestClient(req) },
          // The customer rates through their bridge: rated_by names the conversation's contact.
          rateConversation(
            { conversationId, ratingId: ids.uuid(), score: body.score, remark: body.remark ?? null, ratedBy: { type: 'contact' } },
            lookups.conversation,
          ),
        );
        const p = rated!.payload;
        return {
          status: 201,
          body: {
            ...renderRating({ id: p.rating_id, score: p.score, rated_at: new Date(rated!.created_at).toISOString(), source: 'channel' }, p.remark),
            conversation_id: p.conversation_id,
          },
        };
      });
    },
  });
}
