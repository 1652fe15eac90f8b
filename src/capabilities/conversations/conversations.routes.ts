import type { Knex } from 'knex';
import { commandContext } from '../../api/command-context.js';
import type { Principal } from '../../api/context.js';
import { applyKeyset, isoKey, listQuerySchema, parseCursor, toPage, type ListParams } from '../../api/pagination/list.js';
import { route, type RouteDef } from '../../api/routes.js';
import { BadRequest, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import type { ContactInput } from '../contacts/contacts.decider.js';
import { findContact } from '../contacts/contacts.read.js';
import { decideManage, decideReply, decideStart, type Attachment, type Author, type ManageCommand } from './conversations.decider.js';
import {
  conversationList,
  conversationView,
  conversationWithParts,
  findConversation,
  memberIsActive,
  renderConversation,
  renderPart,
  viewCounts,
  type ConversationRow,
  type PartRow,
} from './conversations.read.js';
import { attachmentsSchema, contactSchema } from './schemas.js';

const author = (p: Principal): Author => (p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId });
const uuid = { type: 'string', format: 'uuid' };

async function partAnswer(db: Knex, tenantId: string, conversationId: string, partId: string) {
  const [part, conv] = await Promise.all([db('conversation_parts').where({ tenant_id: tenantId, id: partId }).first() as Promise<PartRow>, findConversation(db, tenantId, conversationId)]);
  return { ...renderPart(part), conversation: renderConversation(conv!) };
}

export function conversationRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock, ids } = deps;

  return [
    route<{ channel_id: string; body: string; subject?: string; contact_id?: string; contact?: ContactInput; assignee_id?: string }>({
      method: 'post',
      path: '/conversations',
      permission: 'conversations:write',
      body: {
        additionalProperties: false,
        required: ['channel_id', 'body'],
        properties: {
          channel_id: uuid,
          body: { type: 'string', minLength: 1, maxLength: 65535 },
          subject: { type: 'string', maxLength: 500 },
          contact_id: uuid,
          contact: contactSchema,
          assignee_id: uuid,
        },
      },
      async handle(call) {
        const { principal: p, body } = call;
        if ((body.contact_id === undefined) === (body.contact === undefined)) {
          throw new BadRequest('invalid_field', 'Name the customer with exactly one of contact_id or contact.', 'contact');
        }
        const conversationId = ids.uuid();
        await shell.execute(commandContext(call, clock), {
          name: 'StartConversation',
          load: async (tx) => {
            const channel = await tx('channels').where({ tenant_id: p.tenantId, id: body.channel_id }).first('default_team_id');
            return {
              channel: channel ? { defaultTeamId: channel.default_team_id } : null,
              contact: body.contact_id ? await findContact(tx, p.tenantId, { id: body.contact_id }) : await findContact(tx, p.tenantId, body.contact ?? {}),
              assigneeActive: await memberIsActive(tx, p.tenantId, body.assignee_id),
            };
          },
          decide: (s) =>
            decideStart(
              {
                conversationId,
                partId: ids.uuid(),
                newContactId: ids.uuid(),
                channelId: body.channel_id,
                body: body.body,
                subject: body.subject ?? null,
                assigneeId: body.assignee_id ?? null,
                author: author(p),
                contactId: body.contact_id ?? null,
                contact: body.contact ?? null,
              },
              s,
            ),
        });
        return { status: 201, body: await conversationWithParts(db, p.tenantId, conversationId) };
      },
    }),

    route<unknown, ListParams & { state?: string; assignee_id?: string; channel_id?: string; contact_id?: string }>({
      method: 'get',
      path: '/conversations',
      permission: 'conversations:read',
      query: listQuerySchema(conversationList, {
        state: { type: 'string', enum: ['open', 'closed', 'snoozed'] },
        // `none` lists unassigned conversations
        assignee_id: { anyOf: [uuid, { type: 'string', enum: ['none'] }] },
        channel_id: uuid,
        contact_id: uuid,
      }),
      async handle({ principal, query }) {
        const cursor = parseCursor(conversationList, query);
        const q = db('conversations').where({ tenant_id: principal.tenantId });
        if (query.state) q.andWhere({ state: query.state });
        if (query.assignee_id === 'none') q.whereNull('assignee_id');
        else if (query.assignee_id) q.andWhere({ assignee_id: query.assignee_id });
        if (query.channel_id) q.andWhere({ channel_id: query.channel_id });
        if (query.contact_id) q.andWhere({ contact_id: query.contact_id });
        const rows = (await applyKeyset(q, conversationList, query, cursor)) as ConversationRow[];
        const key = query.sort === 'created_at' ? (r: ConversationRow) => isoKey(r.created_at) : (r: ConversationRow) => isoKey(r.updated_at);
        return { status: 200, body: toPage(conversationList, query, rows, key, (r) => r.id, renderConversation) };
      },
    }),

    route({
      method: 'get',
      path: '/conversations/counts',
      permission: 'conversations:read',
      async handle({ principal }) {
        return { status: 200, body: { type: 'list', data: await viewCounts(db, principal.tenantId, principal.memberId) } };
      },
    }),

    route({
      method: 'get',
      path: '/conversations/:id',
      permission: 'conversations:read',
      async handle({ principal, params }) {
        const c = await conversationWithParts(db, principal.tenantId, params.id!);
        if (!c) throw new NotFound('conversation');
        return { status: 200, body: c };
      },
    }),

    route<{ body: string; message_type: 'comment' | 'note'; attachments?: Attachment[] }>({
      method: 'post',
      path: '/conversations/:id/reply',
      permission: 'conversations:write',
      body: {
        additionalProperties: false,
        required: ['body', 'message_type'],
        properties: { body: { type: 'string', minLength: 1, maxLength: 65535 }, message_type: { type: 'string', enum: ['comment', 'note'] }, attachments: attachmentsSchema },
      },
      async handle(call) {
        const { principal: p, params, body } = call;
        const partId = ids.uuid();
        await shell.execute(commandContext(call, clock), {
          name: 'ReplyToConversation',
          load: async (tx) => conversationView(await findConversation(tx, p.tenantId, params.id!)),
          decide: (c) => decideReply({ partId, messageType: body.message_type, body: body.body, attachments: body.attachments ?? [], author: author(p) }, c),
        });
        return { status: 201, body: await partAnswer(db, p.tenantId, params.id!, partId) };
      },
    }),

    route<{ message_type: ManageCommand['messageType']; body?: string; snoozed_until?: string; assignee_id?: string | null; team_id?: string | null }>({
      method: 'post',
      path: '/conversations/:id/parts',
      permission: 'conversations:write',
      body: {
        additionalProperties: false,
        required: ['message_type'],
        properties: {
          message_type: { type: 'string', enum: ['close', 'open', 'snoozed', 'assignment'] },
          body: { type: 'string', maxLength: 65535 },
          snoozed_until: { type: 'string', format: 'date-time' },
          assignee_id: { anyOf: [uuid, { type: 'null' }] },
          team_id: { type: ['string', 'null'], minLength: 1, maxLength: 200 },
        },
        if: { properties: { message_type: { const: 'snoozed' } } },
        then: { required: ['snoozed_until'] },
      },
      async handle(call) {
        const { principal: p, params, body } = call;
        const partId = ids.uuid();
        const ctx = commandContext(call, clock);
        const base = { partId, author: author(p), body: body.body ?? null };
        const cmd: ManageCommand =
          body.message_type === 'snoozed'
            ? { ...base, messageType: 'snoozed', snoozedUntil: body.snoozed_until!, now: ctx.now }
            : body.message_type === 'assignment'
              ? { ...base, messageType: 'assignment', assigneeId: body.assignee_id, teamId: body.team_id }
              : { ...base, messageType: body.message_type };
        await shell.execute(ctx, {
          name: 'ManageConversation',
          load: async (tx) => ({
            conversation: conversationView(await findConversation(tx, p.tenantId, params.id!)),
            assigneeActive: await memberIsActive(tx, p.tenantId, body.assignee_id),
          }),
          decide: (s) => decideManage(cmd, s.conversation, s),
        });
        return { status: 201, body: await partAnswer(db, p.tenantId, params.id!, partId) };
      },
    }),
  ];
}

