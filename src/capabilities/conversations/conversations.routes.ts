import { Type } from '@sinclair/typebox';
import type { Principal } from '../../api/context.js';
import { getRoute, listRoute, searchRoute } from '../../api/resource-routes.js';
import { commandRoute } from '../../api/command-route.js';
import type { Call } from '../../api/routes.js';
import type { Sql } from '../../platform/query/filter.js';
import { route, type RouteDef } from '../../api/routes.js';
import { BadRequest, NotFound } from '../../platform/errors.js';
import { ERROR } from '../../api/schemas.js';
import { ownerLookup, type CoreDeps } from '../capability.js';
import type { ContactInput } from '../contacts/index.js';
import type { Attachment, Author, ManageCommand, Priority } from './conversations.decider.js';
import { PRIORITIES, type ConversationEvent } from './conversations.events.js';
import {
  manageConversation,
  mergeConversation,
  redactPart,
  replyToConversation,
  startConversation,
  tagConversation,
  unsendPart,
} from './conversations.commands.js';
import {
  conversationList,
  conversationsOf,
  conversationsWithParts,
  partsWithConversations,
  viewCountsSchema,
  type ViewCounts,
  type ConversationRow,
  type ConversationRecord,
} from './conversations.read.js';
import { attachmentsSchema, contactSchema } from './schemas.js';
import { batchedOn } from '../../platform/db/batched.js';
import type { Db } from '../../platform/db/database.js';
import { BUILTIN_VIEW_IDS, conversationSearch, conversationViews, NO_CUSTOM_VIEWS, viewCounts, viewFilter } from './conversations.search.js';
import { eventOf, type StoredEvent } from '../../eventstore/envelope.js';
import { isUuid } from '../../platform/ids.js';
import { withAsOf } from '../../api/history.js';
import { pastConversation } from './conversations.history.js';
import { ConversationAnswers } from './answer-fields.js';
import { MAX_FILES_PER_PART, partFiles } from './part-files.js';

/** The query tree as the docs show it; the language checks it (paths in errors), not this schema. */
export const querySchema = {
  type: 'object',
  description:
    'A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators.',
};

const author = (p: Principal): Author => (p.via === 'api_key' ? { type: 'api_key', id: p.keyId! } : { type: 'member', id: p.memberId });
const uuid = { type: 'string', format: 'uuid' };
const Uuid = Type.String({ format: 'uuid' });
const partBody = Type.String({ minLength: 1, maxLength: 65535 });
const PriorityValue = Type.Unsafe<Priority>({ type: 'string', enum: [...PRIORITIES] });
/** uploaded files a new part carries (POST /api/uploads first): see part-files.ts */
const UploadIds = Type.Optional(
  Type.Array(Uuid, {
    maxItems: MAX_FILES_PER_PART,
    uniqueItems: true,
    description: `Ids of uploads (POST /api/uploads) to attach, at most ${MAX_FILES_PER_PART}: each attached to nothing yet and not expired.`,
  }),
);

const NewConversation = Type.Object(
  {
    channel_id: Uuid,
    body: partBody,
    subject: Type.Optional(Type.String({ maxLength: 500 })),
    contact_id: Type.Optional(Uuid),
    contact: Type.Optional(Type.Unsafe<ContactInput>(contactSchema)),
    assignee_id: Type.Optional(Uuid),
    priority: Type.Optional(PriorityValue),
    upload_ids: UploadIds,
  },
  { additionalProperties: false },
);

const Reply = Type.Object(
  {
    body: partBody,
    message_type: Type.Unsafe<'comment' | 'note'>({ type: 'string', enum: ['comment', 'note'] }),
    attachments: Type.Optional(Type.Unsafe<Attachment[]>(attachmentsSchema)),
    /** a note's mentioned teammates (member ids): each gets a conversation.mentioned */
    mentions: Type.Optional(Type.Array(Uuid, { maxItems: 20, uniqueItems: true })),
    upload_ids: UploadIds,
  },
  { additionalProperties: false },
);

/** A snooze names its end (if/then); team_id is one type naming null, as ajv reports it (not an anyOf). */
const ConversationChange = Type.Object(
  {
    message_type: Type.Unsafe<ManageCommand['messageType']>({ type: 'string', enum: ['close', 'open', 'snoozed', 'assignment', 'priority'] }),
    body: Type.Optional(Type.String({ maxLength: 65535 })),
    snoozed_until: Type.Optional(Type.String({ format: 'date-time' })),
    assignee_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    team_id: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], minLength: 1, maxLength: 200 })),
    priority: Type.Optional(PriorityValue),
  },
  {
    additionalProperties: false,
    if: { properties: { message_type: { const: 'snoozed' } } },
    then: { required: ['snoozed_until'] },
  },
);

const TagRef = Type.Object({ tag_id: Uuid }, { additionalProperties: false });

const MergeInto = Type.Object(
  { into: Type.String({ format: 'uuid', description: 'The conversation to merge this one into (the same channel).' }) },
  { additionalProperties: false },
);

export function conversationsRoutes(deps: CoreDeps, answers: ConversationAnswers): RouteDef[] {
  const { db } = deps;
  // The custom views, when the views capability is mounted: it adds them (views imports conversations, not the reverse).
  const views = deps.additions.one(conversationViews) ?? NO_CUSTOM_VIEWS;
  // Uploaded files, when the uploads capability is mounted: it adds them (uploads imports conversations, not the reverse).
  const files = deps.additions.one(partFiles)?.(deps) ?? null;
  const { schema: conversationSchema, withPartsSchema: conversationWithPartsSchema, partWithConversationSchema } = answers;
  /** the filter of ?view_id=, found (404 when unknown or invisible) before the list query is built */
  const viewFilters = new WeakMap<Call, Sql>();
  /** what a search condition probes an index with: the owner pool, outside row-level security (see the body field) */
  const lookup = ownerLookup(deps);
  // Conversations and parts as answers render them, read in batches per handle and workspace: the GETs that arrive
  // while one read of the workspace runs read theirs in one statement instead of one each; the answers a group
  // commit stores with its commands (answerCommand) read theirs through its transaction, the only handle that sees
  // them yet. Without a transaction, an answer reads after its commit (read-your-writes).
  // The fields other capabilities add (answer-fields.ts) come with the rows where they are SQL (`rating`), and
  // in one more statement each where they are a batch read (`sla` and `statistics`), sent with the rows' own. Those
  // are read by the ids asked for, not by the rows found, so that all the statements go to the connection at once
  // (pipelined: one round trip, not two; in a command's transaction, one less under the workspace's lock). An id
  // with no conversation has none of those rows either.
  const readConversation = batchedOn(
    async (h: Db, tenantId: string, ids: string[]) => {
      const [rows, byId] = await Promise.all([conversationsWithParts(h, tenantId, ids, answers), answers.read(h, tenantId, ids)]);
      return rows.map((r) => (r ? answers.attach(r, byId) : null));
    },
    { gather: 'microtask' },
  );
  const readPart = batchedOn(
    async (h: Db, tenantId: string, wanted: { conversationId: string; partId: string }[]) => {
      const [parts, byId] = await Promise.all([
        partsWithConversations(h, tenantId, wanted, answers),
        answers.read(
          h,
          tenantId,
          wanted.map((w) => w.conversationId),
        ),
      ]);
      return parts.map((p) => (p ? { ...p, conversation: answers.attach(p.conversation, byId) } : null));
    },
    { gather: 'microtask' },
  );
  /** A page of conversations with their added fields, read in one batch. */
  const finishPage = async (call: { principal: Principal }, page: unknown) => {
    const p = page as { data: ConversationRecord[] };
    return { ...p, data: await answers.complete(db, call.principal.tenantId, p.data) };
  };
  const conversationAnswer = (tenantId: string, id: string, tx: Db = db) => readConversation(tx, tenantId, id);
  const partAnswer = (tenantId: string, part: { conversationId: string; partId: string }, tx: Db = db) => readPart(tx, tenantId, part);
  /** A part a command just wrote or changed, as its answer (never missing: the command would have refused). */
  const writtenPart = async (tenantId: string, part: { conversationId: string; partId: string }, tx: Db) => {
    const answer = await partAnswer(tenantId, part, tx);
    if (!answer) throw new NotFound('part');
    return answer;
  };

  /** The answer of a command that changes a part (a redaction, an unsend): 200, the part with its conversation. */
  const changedPart = {
    status: 200,
    schema: partWithConversationSchema,
    read: (tx: Db, _events: unknown, { principal, params }: Pick<Call<unknown, unknown, '/conversations/:id/parts/:part_id'>, 'principal' | 'params'>) =>
      writtenPart(principal.tenantId, { conversationId: params.id, partId: params.part_id }, tx),
  };

  /** The answer of a tag change: the conversation, with its tags as they now are. */
  const taggedConversation = {
    status: 200,
    schema: conversationSchema,
    read: (tx: Db, _events: unknown, { principal, params }: Pick<Call<unknown, unknown, '/conversations/:id'>, 'principal' | 'params'>) =>
      answers.one(tx, principal.tenantId, params.id),
  };

  /** The answer of a command that adds a part (a reply, a state change): 201, the part with its conversation. */
  const createdPart = {
    status: 201,
    schema: partWithConversationSchema,
    read: (tx: Db, events: StoredEvent<ConversationEvent>[], call: Pick<Call, 'principal'>) => {
      const part = eventOf(events, 'conversation_part.created');
      return writtenPart(call.principal.tenantId, { conversationId: part.aggregate_id, partId: part.payload.part_id }, tx);
    },
  };

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/conversations',
      permission: 'conversations:write',
      summary: 'Start a conversation (a teammate writes first)',
      responses: { 410: ERROR },
      body: NewConversation,
      before: async ({ body }) => {
        if ((body.contact_id === undefined) === (body.contact === undefined)) {
          throw new BadRequest('invalid_field', 'Name the customer with exactly one of contact_id or contact.', 'contact');
        }
      },
      command: ({ principal: p, body, write }) =>
        startConversation(
          {
            conversationId: write.ids.uuid(),
            partId: write.ids.uuid(),
            newContactId: write.ids.uuid(),
            channelId: body.channel_id,
            body: body.body,
            subject: body.subject ?? null,
            assigneeId: body.assignee_id ?? null,
            priority: body.priority,
            author: author(p),
            contactId: body.contact_id ?? null,
            contact: body.contact ?? null,
            uploadIds: body.upload_ids ?? [],
          },
          files,
        ),
      answer: {
        status: 201,
        schema: conversationWithPartsSchema,
        read: async (tx, events, { principal }) => {
          const started = await conversationAnswer(principal.tenantId, eventOf(events, 'conversation.created').aggregate_id, tx);
          if (!started) throw new NotFound('conversation');
          return started;
        },
      },
    }),

    listRoute<ConversationRow, { state?: string; priority?: string; assignee_id?: string; channel_id?: string; contact_id?: string; view_id?: string }>({
      path: '/conversations',
      permission: 'conversations:read',
      summary: 'List conversations (optionally those of a view; a custom view draws from the expensive rate limit)',
      item: conversationSchema,
      spec: conversationList,
      responses: { 404: ERROR },
      // A custom view is a saved search, and runs like one: from the workspace's expensive budget too. The
      // built-in views are the plain filters they look like.
      rateClass: (req) => (isUuid(req.query.view_id) ? 'expensive' : 'read'),
      filters: {
        state: { type: 'string', enum: ['open', 'closed', 'snoozed'] },
        priority: { type: 'string', enum: [...PRIORITIES] },
        // `none` lists unassigned conversations
        assignee_id: { anyOf: [uuid, { type: 'string', enum: ['none'] }] },
        channel_id: uuid,
        contact_id: uuid,
        view_id: {
          anyOf: [uuid, { type: 'string', enum: BUILTIN_VIEW_IDS }],
          description:
            "A built-in view's id or a custom view's: its conversations (404 when the caller cannot see it). A custom view's list draws from the workspace's `expensive` rate limit, as a search does.",
        },
      },
      before: async (call) => {
        const { principal: p, query } = call;
        if (!query.view_id) return;
        const where = await viewFilter(db, lookup, views, p.tenantId, p.memberId, query.view_id);
        if (!where) throw new NotFound('view');
        viewFilters.set(call, where);
      },
      query: (call) => {
        const { principal, query } = call;
        const q = conversationsOf(db, principal.tenantId, answers);
        if (query.state) q.andWhere({ state: query.state });
        if (query.priority) q.andWhere({ priority: query.priority });
        if (query.assignee_id === 'none') q.whereNull('assignee_id');
        else if (query.assignee_id) q.andWhere({ assignee_id: query.assignee_id });
        if (query.channel_id) q.andWhere({ channel_id: query.channel_id });
        if (query.contact_id) q.andWhere({ contact_id: query.contact_id });
        const view = viewFilters.get(call);
        if (view) q.andWhereRaw(view.sql, view.bindings as never[]);
        return q;
      },
      render: (row) => answers.render(row),
      finish: finishPage,
    }),

    searchRoute<ConversationRow>({
      path: '/conversations/search',
      permission: 'conversations:read',
      summary: 'Search conversations with the filter language',
      item: conversationSchema,
      spec: conversationList,
      querySchema,
      language: conversationSearch,
      lookup,
      query: ({ principal }, where) => conversationsOf(db, principal.tenantId, answers).andWhereRaw(where.sql, where.bindings as never[]),
      render: (row) => answers.render(row),
      finish: finishPage,
    }),

    route({
      method: 'get',
      path: '/conversations/counts',
      permission: 'conversations:read',
      summary:
        'Count conversations per built-in view and per custom view the caller can see, in one statement (one unit of the expensive rate limit, and one per custom view)',
      responses: { 200: viewCountsSchema },
      // Each custom view is a search of its own within the statement: the workspace's expensive budget pays
      // for each one (the built-in views together count as one).
      rateClass: 'expensive',
      rateCost: async (p) => 1 + (await views.countVisibleViews(db, p.tenantId, p.memberId)),
      async handle({ principal: p }) {
        const custom = await views.visibleViews(db, p.tenantId, p.memberId);
        return { status: 200, body: { type: 'list', ...(await viewCounts(db, lookup, p.tenantId, p.memberId, custom)) } satisfies ViewCounts };
      },
    }),

    // ?as_of_seq=N: the conversation as it was right after event N (conversations.history.ts).
    withAsOf(
      getRoute({
        path: '/conversations/:id',
        permission: 'conversations:read',
        summary: 'Get a conversation with its parts',
        resource: conversationWithPartsSchema,
        what: 'conversation',
        find: ({ principal, params }) => conversationAnswer(principal.tenantId, params.id),
        render: (c) => c,
      }),
      deps.store,
      'conversation',
      ({ principal, params }, asOfSeq) => pastConversation(deps, answers, principal.tenantId, params.id, asOfSeq),
    ),

    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/reply',
      permission: 'conversations:write',
      summary: 'Reply (comment, sent to the channel) or add a note',
      body: Reply,
      command: ({ principal: p, params, body, write }) =>
        replyToConversation(
          {
            conversationId: params.id,
            partId: write.ids.uuid(),
            messageType: body.message_type,
            body: body.body,
            attachments: body.attachments ?? [],
            author: author(p),
            mentions: body.mentions ?? [],
            uploadIds: body.upload_ids ?? [],
          },
          files,
        ),
      answer: createdPart,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/parts',
      permission: 'conversations:write',
      summary: 'Close, open, snooze, assign or prioritise a conversation',
      body: ConversationChange,
      command: ({ principal: p, params, body, write }, now) => {
        const base = { partId: write.ids.uuid(), author: author(p), body: body.body ?? null };
        const cmd: ManageCommand =
          body.message_type === 'snoozed'
            ? { ...base, messageType: 'snoozed', snoozedUntil: body.snoozed_until!, now }
            : body.message_type === 'assignment'
              ? { ...base, messageType: 'assignment', assigneeId: body.assignee_id, teamId: body.team_id }
              : body.message_type === 'priority'
                ? { ...base, messageType: 'priority', priority: body.priority }
                : { ...base, messageType: body.message_type };
        return manageConversation(params.id, cmd);
      },
      answer: createdPart,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/parts/:part_id/redact',
      permission: 'conversations:delete',
      summary: 'Redact a part: its body and attachments become unreadable everywhere (log, feed, webhooks, stored answers); a repeat answers the current state',
      command: ({ principal: p, params }) => redactPart({ conversationId: params.id, partId: params.part_id, by: author(p) }, deps.forgettable),
      answer: changedPart,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/parts/:part_id/unsend',
      permission: 'conversations:delete',
      summary: "Unsend your own comment within UNSEND_WINDOW_SECONDS: its content is destroyed and the channel's bridge is told to retract it",
      command: ({ params }) =>
        unsendPart({ conversationId: params.id, partId: params.part_id, windowSeconds: deps.config.unsendWindowSeconds }, deps.forgettable),
      answer: changedPart,
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/merge',
      permission: 'conversations:write',
      summary:
        "Merge a conversation into another of its channel: it is closed and read-only, its thread's later messages land in the other, which gets a `merged` part naming it",
      body: MergeInto,
      responses: { 409: ERROR, 422: ERROR },
      command: ({ principal: p, params, body, write }) =>
        mergeConversation({ sourceId: params.id, targetId: body.into, closePartId: write.ids.uuid(), mergedPartId: write.ids.uuid(), author: author(p) }),
      answer: taggedConversation,
    }),

    // Tags are deltas: one tag on, one tag off, never a replace-the-list call, so two writers can't undo each
    // other. Both answer the conversation with its resulting tags; a repeat changes nothing and answers the same.
    commandRoute(deps, {
      method: 'post',
      path: '/conversations/:id/tags',
      permission: 'conversations:write',
      summary: 'Tag a conversation (tagging it twice changes nothing)',
      body: TagRef,
      command: ({ params, body }) => tagConversation({ conversationId: params.id, tagId: body.tag_id, add: true }),
      answer: taggedConversation,
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/conversations/:id/tags/:tag_id',
      permission: 'conversations:write',
      summary: 'Take a tag off a conversation (taking off one it lacks changes nothing)',
      command: ({ params }) => tagConversation({ conversationId: params.id, tagId: params.tag_id, add: false }),
      answer: taggedConversation,
    }),
  ];
}
