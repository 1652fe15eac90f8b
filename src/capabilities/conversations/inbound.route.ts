// POST /api/channels/:id/inbound: a bridge posts a customer's message, signed
// with the channel's webhook_secret (spec 5.5). No API key is involved: who may
// post, how often and what a replay gets is the channels' signed door
// (channels/signed-post.ts); this says what a post files.
import { Type, type Static } from '@sinclair/typebox';
import { ResponseDoc, type Answer, type RouteDef } from '../../api/routes.js';
import { constant, errorListSchema, nullable, object, oneOfStrings, uuid } from '../../api/schemas.js';
import type { CoreDeps } from '../capability.js';
import { signedChannelRoute, type SignedPost } from '../channels/index.js';
import type { ContactInput } from '../contacts/index.js';
import type { Attachment } from './conversations.decider.js';
import { inboundMessage } from './conversations.commands.js';
import { findThread, threadKey } from './conversations.read.js';
import { attachmentsSchema, contactSchema } from './schemas.js';

const InboundBody = Type.Object(
  {
    external_id: Type.String({ minLength: 1, maxLength: 255 }),
    message_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    contact: Type.Unsafe<ContactInput & { external_id: string }>({ ...contactSchema, required: ['external_id'] }),
    content: Type.String({ minLength: 1, maxLength: 65535 }),
    attachments: Type.Optional(Type.Unsafe<Attachment[]>(attachmentsSchema)),
    at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
type Inbound = Static<typeof InboundBody>;

const receiptSchema = object(
  { type: constant('inbound_receipt'), status: oneOfStrings(['conversation_created', 'part_added']), conversation_id: uuid, part_id: uuid, contact_id: uuid },
  { title: 'InboundReceipt' },
);
const duplicateSchema = object(
  { type: constant('inbound_receipt'), status: constant('duplicate'), conversation_id: nullable(uuid) },
  { title: 'InboundDuplicate' },
);

export function inboundRoute(deps: CoreDeps): RouteDef {
  const { db, shell, ids } = deps;
  /** Nothing filed: the thread's conversation (null when there is none to name: erased, deleted). */
  const duplicate = async (post: SignedPost<Inbound>, conversationId?: string | null): Promise<Answer> => ({
    status: 202,
    body: {
      type: 'inbound_receipt',
      status: 'duplicate',
      conversation_id:
        conversationId !== undefined ? conversationId : ((await findThread(db, post.tenantId, post.channel.id, post.body.external_id))?.id ?? null),
    } satisfies Static<typeof duplicateSchema>,
  });
  return signedChannelRoute<Inbound>(deps, {
    path: '/channels/:id/inbound',
    mediaType: 'application/json',
    summary: "Post a customer's message as the channel's bridge (signed)",
    body: InboundBody,
    responses: {
      201: new ResponseDoc("Filed: a new conversation (the thread's first post), or a new part (a follow-up with a new message_id).", receiptSchema),
      202: new ResponseDoc(
        "Nothing filed: the thread exists and the post carries no new message_id, the same bytes were accepted before (a retry, or a replay under a new timestamp), or the thread's conversation was deleted or its contact erased (`conversation_id` null: an erased thread is never filed again; a customer who comes back starts a thread with a new external_id).",
        duplicateSchema,
      ),
      409: errorListSchema,
    },
    replayed: (post, first) => duplicate(post, first.conversationId),
    async file(post) {
      const { body, channel } = post;
      const { events } = await shell.execute(
        // the bridge's address goes into the audit log sealed with the contact's key (audit-log.seal.ts)
        post.as,
        inboundMessage({
          channelId: channel.id,
          defaultTeamId: channel.default_team_id,
          conversationId: ids.uuid(),
          contactId: ids.uuid(),
          partId: ids.uuid(),
          externalId: body.external_id,
          threadKey: threadKey(deps.sealer, post.tenantId, channel.id, body.external_id),
          messageId: body.message_id ?? null,
          contact: body.contact,
          content: body.content,
          attachments: body.attachments ?? [],
          at: body.at ?? post.now.toISOString(),
        }),
      );
      const part = events.find((e) => e.type === 'conversation_part.created');
      if (!part || part.type !== 'conversation_part.created') return duplicate(post);
      return {
        status: 201,
        body: {
          type: 'inbound_receipt',
          status: events.some((e) => e.type === 'conversation.created') ? 'conversation_created' : 'part_added',
          conversation_id: part.aggregate_id,
          part_id: part.payload.part_id,
          contact_id: part.payload.author.id,
        } satisfies Static<typeof receiptSchema>,
      };
    },
  });
}
