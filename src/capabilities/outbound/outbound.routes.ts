import { commandContext } from '../../api/command-context.js';
import type { Principal } from '../../api/context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import type { Schema } from '../../api/validation.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { checkContactQuery } from '../contacts/index.js';
import { cancelCollection, createCollection, deleteCollection, sendCollection, updateCollection } from './outbound.commands.js';
import { MAX_AUDIENCE, type Draft } from './outbound.decider.js';
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
  type CollectionRow,
  type RecipientRow,
} from './outbound.read.js';
import { announce } from './outbound.repo.js';

export const BODY_MAX_LENGTH = 20_000;
const uuid: Schema = { type: 'string', format: 'uuid' };

const audience: Schema = {
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['contact_ids'], properties: { contact_ids: { type: 'array', minItems: 1, maxItems: MAX_AUDIENCE, items: uuid } } },
    { type: 'object', additionalProperties: false, required: ['tag_ids'], properties: { tag_ids: { type: 'array', minItems: 1, maxItems: 100, items: uuid } } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['query'],
      properties: { query: { type: 'object', description: 'The contacts filter language, as POST /api/contacts/search takes it: a condition `{field, operator, value}` or a group `{operator, value}`.' } },
    },
  ],
};

const fields: Record<string, Schema> = {
  name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  channel_id: uuid,
  subject: { type: ['string', 'null'], maxLength: 500 },
  body: { type: 'string', minLength: 1, maxLength: BODY_MAX_LENGTH },
  audience,
  send_at: { type: ['string', 'null'], format: 'date-time' },
};

type Body = { name: string; channel_id: string; subject?: string | null; body: string; audience: Audience; send_at?: string | null };

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
  const { db, shell, clock } = deps;
  const reload = async (tenantId: string, id: string) => renderCollection((await findCollection(db, tenantId, id))!);
  const wake = () => announce(db).catch((e) => deps.log.warn({ err: e }, 'could not wake outbound workers'));

  return [
    route({
      method: 'get',
      path: '/outbound',
      permission: 'settings:read',
      summary: 'List outbound collections (all of them, at most 150, newest first; unpaginated)',
      responses: { 200: collectionListSchema },
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: (await allCollections(db, principal.tenantId)).map(renderCollection) } };
      },
    }),

    route<Body>({
      method: 'post',
      path: '/outbound',
      permission: 'settings:write',
      summary: 'Create an outbound collection (a draft)',
      responses: { 201: collectionSchema, 422: ERROR },
      body: { additionalProperties: false, required: ['name', 'channel_id', 'body', 'audience'], properties: fields },
      async handle(call) {
        const b = call.body;
        const draft: Draft = {
          id: call.write.ids.uuid(),
          name: b.name,
          channel_id: b.channel_id.toLowerCase(),
          subject: b.subject ?? null,
          body: b.body,
          audience: normalAudience(b.audience),
          send_at: iso(b.send_at) ?? null,
        };
        const [created] = await shell.execute(commandContext(call, clock), createCollection(draft));
        return { status: 201, body: await reload(call.principal.tenantId, created!.aggregate_id) };
      },
    }),

    getRoute<CollectionRow>({
      path: '/outbound/:id',
      permission: 'settings:read',
      summary: 'Get an outbound collection, with its state and counts',
      resource: collectionSchema,
      what: 'outbound collection',
      find: ({ principal, params }) => findCollection(db, principal.tenantId, params.id!),
      render: renderCollection,
    }),

    route<Partial<Body>>({
      method: 'put',
      path: '/outbound/:id',
      permission: 'settings:write',
      summary: 'Change a draft outbound collection',
      responses: { 200: collectionSchema, 409: ERROR },
      body: { additionalProperties: false, minProperties: 1, properties: fields },
      async handle(call) {
        const { principal, params, body: b } = call;
        await shell.execute(
          commandContext(call, clock),
          updateCollection({
            id: params.id!,
            name: b.name,
            channel_id: b.channel_id?.toLowerCase(),
            subject: b.subject,
            body: b.body,
            audience: b.audience === undefined ? undefined : normalAudience(b.audience),
            send_at: iso(b.send_at),
          }),
        );
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/outbound/:id',
      permission: 'settings:write',
      summary: 'Delete a draft outbound collection',
      responses: { 200: deletedCollectionSchema, 409: ERROR },
      async handle(call) {
        const [deleted] = await shell.execute(commandContext(call, clock), deleteCollection(call.params.id!));
        return { status: 200, body: { type: 'outbound', id: deleted!.aggregate_id, deleted: true } };
      },
    }),

    route({
      method: 'post',
      path: '/outbound/:id/send',
      permission: 'conversations:write',
      summary: 'Send a draft now, or schedule it for its send_at (the audience is resolved when sending starts)',
      responses: { 200: collectionSchema, 409: ERROR, 422: ERROR },
      async handle(call) {
        const { principal: p, params } = call;
        const events = await shell.execute(commandContext(call, clock), sendCollection({ id: params.id!, author: author(p), memberId: p.memberId }));
        if (events.some((e) => e.type === 'outbound.sending')) await wake();
        return { status: 200, body: await reload(p.tenantId, params.id!) };
      },
    }),

    route({
      method: 'post',
      path: '/outbound/:id/cancel',
      permission: 'conversations:write',
      summary: 'Cancel a collection: no recipient that has not been sent will be',
      responses: { 200: collectionSchema, 409: ERROR },
      async handle(call) {
        const { principal: p, params } = call;
        await shell.execute(commandContext(call, clock), cancelCollection(params.id!));
        return { status: 200, body: await reload(p.tenantId, params.id!) };
      },
    }),

    listRoute<RecipientRow, { status?: string }>({
      path: '/outbound/:id/recipients',
      permission: 'settings:read',
      summary: "List a collection's recipients (one per contact of the frozen audience), with their conversation or error",
      item: recipientSchema,
      spec: recipientList,
      filters: { status: { type: 'string', enum: [...RECIPIENT_STATUSES] } },
      before: async ({ principal, params }) => {
        if (!(await findCollection(db, principal.tenantId, params.id!))) throw new NotFound('outbound collection');
      },
      query: ({ principal, params, query }) => {
        const q = recipientsOf(db, principal.tenantId, params.id!);
        if (query.status) q.andWhere({ status: query.status });
        return q;
      },
      render: renderRecipient,
    }),
  ];
}
