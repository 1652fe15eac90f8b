import { Type, type Static } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { BadRequest, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { findConversation } from '../conversations/index.js';
import { createSavedReply, deleteSavedReply, updateSavedReply } from './saved-replies.commands.js';
import {
  allSavedReplies,
  deletedSavedReplySchema,
  findSavedReply,
  renderedReplySchema,
  renderSavedReply,
  savedReplyListSchema,
  savedReplySchema,
  type DeletedSavedReply,
  type RenderedReply,
  type SavedReplyList,
} from './saved-replies.read.js';
import { renderForConversation } from './saved-replies.render.js';

export const BODY_MAX_LENGTH = 20_000;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  body: Type.String({ minLength: 1, maxLength: BODY_MAX_LENGTH }),
};
const NewSavedReply = Type.Object(fields, { additionalProperties: false });
const SavedReplyChanges = Type.Partial(Type.Object(fields), { additionalProperties: false, minProperties: 1 });
const RenderFor = Type.Object({ conversation_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export function savedRepliesRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;

  return [
    route({
      method: 'get',
      path: '/saved-replies',
      permission: 'conversations:read',
      summary: 'List saved replies (all of them, at most 150, by name; unpaginated)',
      responses: { 200: savedReplyListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await allSavedReplies(db, principal.tenantId)).map(renderSavedReply) } satisfies SavedReplyList };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/saved-replies',
      permission: 'settings:write',
      summary: 'Create a saved reply',
      body: NewSavedReply,
      command: (call) => createSavedReply({ id: call.write.ids.uuid(), name: call.body.name, body: call.body.body }),
      answer: {
        status: 201,
        schema: savedReplySchema,
        read: async (tx, [created], call) => renderSavedReply((await findSavedReply(tx, call.principal.tenantId, created!.aggregate_id))!),
      },
    }),

    getRoute({
      path: '/saved-replies/:id',
      permission: 'conversations:read',
      summary: 'Get a saved reply',
      resource: savedReplySchema,
      what: 'saved reply',
      find: ({ principal, params }) => findSavedReply(db, principal.tenantId, params.id),
      render: renderSavedReply,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/saved-replies/:id',
      permission: 'settings:write',
      summary: "Change a saved reply's name or body",
      body: SavedReplyChanges,
      command: ({ params, body }) => updateSavedReply({ id: params.id, name: body.name, body: body.body }),
      answer: {
        status: 200,
        schema: savedReplySchema,
        read: async (tx, _events, { principal, params }) => renderSavedReply((await findSavedReply(tx, principal.tenantId, params.id))!),
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/saved-replies/:id',
      permission: 'settings:write',
      summary: 'Delete a saved reply',
      command: (call) => deleteSavedReply({ id: call.params.id }),
      answer: {
        status: 200,
        schema: deletedSavedReplySchema,
        read: async (_tx, [deleted]): Promise<DeletedSavedReply> => ({ type: 'saved_reply', id: deleted!.aggregate_id, deleted: true }),
      },
    }),

    route<Static<typeof RenderFor>, unknown, '/saved-replies/:id/render'>({
      method: 'post',
      path: '/saved-replies/:id/render',
      permission: 'conversations:read',
      summary: 'Render a saved reply for a conversation (its contact, and the caller as the member)',
      responses: { 200: renderedReplySchema },
      body: RenderFor,
      async handle(call) {
        const { principal, params, body } = call;
        // A render is a read, and its answer holds a contact's and a member's personal data: a stored
        // (replayable) answer would outlive their erasure, so a key is refused rather than honoured.
        if (call.req.get('idempotency-key') !== undefined) {
          throw new BadRequest(
            'idempotency_key_not_allowed',
            'Rendering changes nothing and its answer holds personal data: send it without Idempotency-Key.',
            'Idempotency-Key',
          );
        }
        const reply = await findSavedReply(db, principal.tenantId, params.id);
        if (!reply) throw new NotFound('saved reply');
        const conversation = await findConversation(db, principal.tenantId, body.conversation_id);
        if (!conversation) throw new BadRequest('unknown_conversation', 'conversation_id names no conversation of this workspace.', 'conversation_id');
        const rendered = await renderForConversation(db, principal.tenantId, reply, conversation, principal.memberId);
        return { status: 200, body: { type: 'rendered_reply', ...rendered } satisfies RenderedReply };
      },
    }),
  ];
}
