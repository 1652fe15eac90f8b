// POST /api/channels/:id/ratings: a bridge posts the customer's rating of a
// thread, through the channels' signed door (channels/signed-post.ts) like its
// inbound posts. The rating carries the time the customer gave it, in the signed
// body: a rating older than the one in force changes nothing, so bytes replayed
// after the door has forgotten them can never set a rating back.
import { Type, type Static } from '@sinclair/typebox';
import { ResponseDoc, type Answer, type RouteDef } from '../../api/routes.js';
import { errorListSchema } from '../../api/schemas.js';
import { BadRequest, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { signedChannelRoute, TIMESTAMP_TOLERANCE_S, type SignedPost } from '../channels/index.js';
import { rateConversation, type RatedConversationLookup } from './csat.commands.js';
import { currentRating, renderRating } from './csat.read.js';
import { Rating, ratingAnswerSchema } from './csat.schemas.js';

const NO_CONVERSATION = '00000000-0000-4000-8000-000000000000';

const BridgeRating = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 255, description: "The bridge's thread id, as its inbound posts name it." }),
    ...Rating.properties,
    rated_at: Type.String({
      format: 'date-time',
      description:
        'When the customer gave the rating (at most 5 minutes ahead of the service clock). A rating older than the one in force, or the same rating again, changes nothing (202).',
    }),
  },
  { additionalProperties: false },
);
type BridgeRatingBody = Static<typeof BridgeRating>;

/** The conversation a channel filed for a bridge's thread (conversations' read, handed in): null when there is none. */
export type ThreadLookup = (db: CoreDeps['db'], tenantId: string, channelId: string, externalId: string) => Promise<{ id: string } | null>;

export function bridgeRatingRoute(deps: CoreDeps, lookups: { conversation: RatedConversationLookup; thread: ThreadLookup }): RouteDef {
  const { db, shell, ids } = deps;
  /** The rating in force stands (nothing recorded): 202 with it. */
  const standing = async (post: SignedPost<BridgeRatingBody>, conversationId: string | null): Promise<Answer> => {
    const id = conversationId ?? (await lookups.thread(db, post.tenantId, post.channel.id, post.body.external_id))?.id ?? null;
    const r = id ? await currentRating(db, post.tenantId, id) : null;
    if (!r || !id) throw new NotFound('conversation'); // deleted since
    return {
      status: 202,
      body: { ...renderRating({ id: r.ratingId, score: r.score, rated_at: r.ratedAt, source: r.source }, r.remark), conversation_id: id },
    };
  };
  return signedChannelRoute<BridgeRatingBody>(deps, {
    path: '/channels/:id/ratings',
    mediaType: 'application/json',
    summary: "Post a customer's satisfaction rating (CSAT, 1 to 5) of a thread as the channel's bridge (signed like inbound posts)",
    body: BridgeRating,
    responses: {
      201: ratingAnswerSchema,
      202: new ResponseDoc(
        'Nothing recorded: the rating in force was given later, or it is this very rating (the same bytes again, or the same score and remark at the same `rated_at`). The answer is the rating in force.',
        ratingAnswerSchema,
      ),
      400: errorListSchema,
      404: errorListSchema,
      410: errorListSchema,
    },
    replayed: (post, first) => standing(post, first.conversationId),
    async file(post) {
      const { body, channel, now } = post;
      if (Date.parse(body.rated_at) > now.getTime() + TIMESTAMP_TOLERANCE_S * 1000) {
        throw new BadRequest('rated_at_ahead', '`rated_at` is more than 5 minutes ahead of the service clock; check the bridge clock.', 'rated_at');
      }
      const thread = await lookups.thread(db, post.tenantId, channel.id, body.external_id);
      const {
        events: [rated],
      } = await shell.execute(
        post.as,
        // The customer rates through their bridge: rated_by names the conversation's contact.
        rateConversation(
          {
            conversationId: thread?.id ?? NO_CONVERSATION,
            ratingId: ids.uuid(),
            score: body.score,
            remark: body.remark ?? null,
            ratedBy: { type: 'contact' },
            ratedAt: body.rated_at,
          },
          lookups.conversation,
        ),
      );
      if (!rated) return standing(post, thread!.id);
      const p = rated.payload;
      return {
        status: 201,
        body: {
          ...renderRating({ id: p.rating_id, score: p.score, rated_at: p.rated_at ?? new Date(rated.created_at).toISOString(), source: 'channel' }, p.remark),
          conversation_id: p.conversation_id,
        },
      };
    },
  });
}
