import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import type { Principal } from '../../api/context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { route, type Call, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import type { Db } from '../../platform/db/database.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { checkContactQuery } from '../contacts/index.js';
import { cancelCollection, createCollection, deleteCollection, sendCollection, updateCollection } from './outbound.commands.js';
import { MAX_AUDIENCE } from './outbound.decider.js';
import type { Audience, OutboundAuthor } from './outbound.events.js';
import {
  allCollections,
  collectionListSchema,
  collectionSchema,
  deletedCollectionSchema,
  findCollection,
  recipientList,
  recipientSchema,
  recipientsOf,
  renderCollection,
  renderRecipient,
  RECIPIENT_STATUSES,
  type DeletedOutbound,
  type OutboundList,
  type RecipientRow,
} from './outbound.read.js';
import { announce } from './outbound.repo.js';

export const BODY_MAX_LENGTH = 20_000;
const uuid = Type.String({ format: 'uuid' });

// oneOf as it always was (TypeBox's Union would be anyOf): the same document, and the same messages for a body matching none.
const audience = Type.Unsafe<Audience>({
  oneOf: [
    Type.Object({ contact_ids: Type.Array(uuid, { minItems: 1, maxItems: MAX_AUDIENCE }) }, { additionalProperties: false }),
    Type.Object({ tag_ids: Type.Array(uuid, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
    Type.Object(
      {
        query: Type.Unsafe<object>({
          type: 'object',
          description:
            'The contacts filter language, as POST /api/contacts/search takes it: a condition `{field, operator, value}` or a group `{operator, value}`.',
        }),
      },
      { additionalProperties: false },
    ),
  ],
});

const NewCollection = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
    channel_id: uuid,
    subject: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 500 })),
    body: Type.String({ minLength: 1, maxLength: BODY_MAX_LENGTH }),
    audience,
    send_at: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' })),
  },
  { additionalProperties: false },
);

const CollectionChanges = Type.Partial(NewCollection, { additionalProperties: false, minProperties: 1 });

const author = (p: Principal): OutboundAuthor => (p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId });
const iso = (s: string | null | undefined) => (s === undefined ? undefined : s === null ? null : new Date(s).toISOString());

/** Lower-cased ids, first mention kept: the audience as stored. A filter query is checked here (400 invalid_query, fields under audience.query). */
function normalAudience(a: Audience): Audience {
  if ('query' in a) checkContactQuery(a.query, 'audience.query');
  if ('contact_ids' in a) return { contact_ids: [...new Set(a.contact_ids.map((id) => id.toLowerCase()))] };
  if ('tag_ids' in a) return { tag_ids: [...new Set(a.tag_ids.map((id) => id.toLowerCase()))] };
  return { query: a.query };
}

export function outboundRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;
  const collectionIn = async (tx: Db, call: Call, id: string) => renderCollection((await findCollection(tx, call.principal.tenantId, id))!);
  const wake = () => announce(db).catch((e) => deps.log.warn({ err: e }, 'could not wake outbound workers'));

  return [
    route({
      method: 'get',
      path: '/outbound',
      permission: 'settings:read',
      summary: 'List outbound collections (all of them, at most 150, newest first; unpaginated)',
      responses: { 200: collectionListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await allCollections(db, principal.tenantId)).map(renderCollection) } satisfies OutboundList };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/outbound',
      permission: 'settings:write',
      summary: 'Create an outbound collection (a draft)',
      responses: { 422: ERROR },
      body: NewCollection,
      command: ({ body: b, write }) =>
        createCollection({
          id: write.ids.uuid(),
          name: b.name,
          channel_id: b.channel_id.toLowerCase(),
          subject: b.subject ?? null,
          body: b.body,
          audience: normalAudience(b.audience),
          send_at: iso(b.send_at) ?? null,
        }),
      answer: { status: 201, schema: collectionSchema, read: (tx, [created], call) => collectionIn(tx, call, created!.aggregate_id) },
    }),

    getRoute({
      path: '/outbound/:id',
      permission: 'settings:read',
      summary: 'Get an outbound collection, with its state and counts',
      resource: collectionSchema,
      what: 'outbound collection',
      find: ({ principal, params }) => findCollection(db, principal.tenantId, params.id),
      render: renderCollection,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/outbound/:id',
      permission: 'settings:write',
      summary: 'Change a draft outbound collection',
      responses: { 409: ERROR },
      body: CollectionChanges,
      command: ({ params, body: b }) =>
        updateCollection({
          id: params.id,
          name: b.name,
          channel_id: b.channel_id?.toLowerCase(),
          subject: b.subject,
          body: b.body,
          audience: b.audience === undefined ? undefined : normalAudience(b.audience),
          send_at: iso(b.send_at),
        }),
      answer: { status: 200, schema: collectionSchema, read: (tx, _events, call) => collectionIn(tx, call, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/outbound/:id',
      permission: 'settings:write',
      summary: 'Delete a draft outbound collection',
      responses: { 409: ERROR },
      command: ({ params }) => deleteCollection(params.id),
      answer: {
        status: 200,
        schema: deletedCollectionSchema,
        read: async (_tx, [deleted]): Promise<DeletedOutbound> => ({ type: 'outbound', id: deleted!.aggregate_id, deleted: true }),
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/outbound/:id/send',
      permission: 'conversations:write',
      summary: 'Send a draft now, or schedule it for its send_at (the audience is resolved when sending starts)',
      responses: { 409: ERROR, 422: ERROR },
      command: ({ principal: p, params }) => sendCollection({ id: params.id, author: author(p), memberId: p.memberId }),
      answer: {
        status: 200,
        schema: collectionSchema,
        read: (tx, _events, call) => collectionIn(tx, call, call.params.id),
      },
      // Sending started (outbound.sending committed): wake the workers; a failure to wake must not undo the command.
      after: async (_call, events) => {
        if (events.some((e) => e.type === 'outbound.sending')) await wake();
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/outbound/:id/cancel',
      permission: 'conversations:write',
      summary: 'Cancel a collection: no recipient that has not been sent will be',
      responses: { 409: ERROR },
      command: ({ params }) => cancelCollection(params.id),
      answer: { status: 200, schema: collectionSchema, read: (tx, _events, call) => collectionIn(tx, call, call.params.id) },
    }),

    listRoute<RecipientRow, { status?: string }, '/outbound/:id/recipients'>({
      path: '/outbound/:id/recipients',
      permission: 'settings:read',
      summary: "List a collection's recipients (one per contact of the frozen audience), with their conversation or error",
      item: recipientSchema,
      spec: recipientList,
      filters: { status: { type: 'string', enum: [...RECIPIENT_STATUSES] } },
      before: async ({ principal, params }) => {
        if (!(await findCollection(db, principal.tenantId, params.id))) throw new NotFound('outbound collection');
      },
      query: ({ principal, params, query }) => {
        const q = recipientsOf(db, principal.tenantId, params.id);
        if (query.status) q.andWhere({ status: query.status });
        return q;
      },
      render: renderRecipient,
    }),
  ];
}
