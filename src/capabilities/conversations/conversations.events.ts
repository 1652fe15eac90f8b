import { defineEvent, Instant, Nullable, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

const State = () => Type.Union([Type.Literal('open'), Type.Literal('closed'), Type.Literal('snoozed')]);

export const PART_TYPES = ['message', 'comment', 'note', 'close', 'open', 'snoozed', 'assignment', 'priority', 'merged'] as const;
/** How urgent a conversation is; `normal` unless set at creation or by a `priority` part. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const Priority = () => Type.Union(PRIORITIES.map((p) => Type.Literal(p)));
export const AUTHOR_TYPES = ['contact', 'member', 'api_key', 'system'] as const;
/** The team assignment rules that assign (a team's `none` never does): routing's reason on its assignment parts. */
export const ROUTING_RULES = ['round_robin', 'balanced'] as const;

const Attachment = () =>
  payload({
    url: Text(),
    /** an uploaded file's id: its bytes are the service's to serve (GET /api/uploads/{id}/content) */
    upload_id: Type.Optional(Uuid()),
    /** only in a channel bridge's delivery: where it downloads an uploaded file without a key, until UPLOAD_URL_TTL_SECONDS after the send */
    download_url: Type.Optional(Text()),
    name: Type.Optional(Text()),
    content_type: Type.Optional(Text()),
    size: Type.Optional(Type.Integer({ minimum: 0 })),
  });

export const ConversationCreated = defineEvent({
  type: 'conversation.created',
  aggregate_type: 'conversation',
  description:
    "A conversation was opened: by a bridge's first inbound post of a thread (source inbound) or by a teammate (source teammate). Its first part follows in the same command. `external_id` is the bridge's thread id: personal (it is often the customer's handle or number), null once the contact is erased.",
  personal: { kind: 'conversation', id: 'conversation_id', fields: ['subject', 'external_id'], owner: { kind: 'contact', id: 'contact_id' }, fresh: true },
  postedFor: { contact: 'contact_id' },
  payload: payload({
    conversation_id: Uuid(),
    channel_id: Uuid(),
    contact_id: Uuid(),
    /** the bridge's thread id (often the customer's own handle or number): personal, gone with the contact */
    external_id: Personal(Text()),
    subject: Personal(Text()),
    state: Type.Literal('open'),
    assignee_id: Nullable(Uuid()),
    team_id: Nullable(Text()),
    source: Type.Union([Type.Literal('inbound'), Type.Literal('teammate')]),
    /** absent in events from before priorities: normal */
    priority: Type.Optional(Priority()),
  }),
});

export const ConversationPartCreated = defineEvent({
  type: 'conversation_part.created',
  aggregate_type: 'conversation',
  description:
    "A part was added to a conversation: a customer message, a teammate comment (sent to the channel) or note, or a state change (close, open, snoozed, assignment, priority). State changes carry the resulting state. An assignment routing made (a team's assignment rule, for a new or reopened unassigned conversation, in the same command) is authored by `{type: 'system', id: 'routing'}` and carries `assigned_by: {rule, team_id}`.",
  personal: { kind: 'part', id: 'part_id', fields: ['body', 'attachments'], owner: { kind: 'conversation', id: 'conversation_id' }, fresh: true },
  postedFor: { contact: 'author' },
  payload: payload({
    conversation_id: Uuid(),
    part_id: Uuid(),
    part_type: Type.Union(PART_TYPES.map((t) => Type.Literal(t))),
    channel_id: Uuid(),
    author: payload({ type: Type.Union(AUTHOR_TYPES.map((t) => Type.Literal(t))), id: Text() }),
    body: Personal(Text()),
    external_id: Type.Optional(Text()),
    attachments: Type.Optional(Personal(Type.Array(Attachment()))),
    /** the uploaded files among the attachments, by id: in the clear (ids only), so what follows the part can find them once its content is gone */
    upload_ids: Type.Optional(Type.Array(Uuid())),
    /** on a `merged` part: the conversation merged into this one (conversation.merged) */
    merged_from: Type.Optional(Uuid()),
    sent_at: Type.Optional(Instant()),
    state: Type.Optional(State()),
    snoozed_until: Type.Optional(Nullable(Instant())),
    assignee_id: Type.Optional(Nullable(Uuid())),
    team_id: Type.Optional(Nullable(Text())),
    priority: Type.Optional(Priority()),
    /** present on the assignment parts routing appends (author system `routing`) */
    assigned_by: Type.Optional(
      Type.Object(
        {
          rule: Type.Union(ROUTING_RULES.map((r) => Type.Literal(r))),
          team_id: Uuid(),
        },
        {
          additionalProperties: false,
          description:
            "On an assignment part that routing appended (author `{type: 'system', id: 'routing'}`): the team's assignment rule that chose `assignee_id` (`round_robin` or `balanced`) and the team. Absent on assignments a teammate or API key made.",
        },
      ),
    ),
  }),
});

export const ConversationPartRedacted = defineEvent({
  type: 'conversation_part.redacted',
  aggregate_type: 'conversation',
  description:
    "A part's content was redacted: its data key was destroyed, so its body and attachments read as null everywhere from now on. The part keeps its id and place. Ids only.",
  payload: payload({
    conversation_id: Uuid(),
    part_id: Uuid(),
    redacted_by: payload({ type: Type.Union(AUTHOR_TYPES.map((t) => Type.Literal(t))), id: Text() }),
  }),
});

export const ConversationPartUnsent = defineEvent({
  type: 'conversation_part.unsent',
  aggregate_type: 'conversation',
  description:
    "Its author retracted a comment within the unsend window: its content is destroyed like a redaction, and the channel's webhook_url gets this event so the bridge can retract the message there. Ids only.",
  payload: payload({ conversation_id: Uuid(), part_id: Uuid(), channel_id: Uuid(), external_id: Nullable(Text()) }),
});

export const ConversationTagged = defineEvent({
  type: 'conversation.tagged',
  aggregate_type: 'conversation',
  description:
    "A tag was added to a conversation (a delta: tagging it again appends nothing). `name` is the tag's name at the time; the catalog has the current one.",
  payload: payload({ conversation_id: Uuid(), tag_id: Uuid(), name: Text() }),
});

export const ConversationUntagged = defineEvent({
  type: 'conversation.untagged',
  aggregate_type: 'conversation',
  description:
    'A tag was taken off a conversation (a delta: untagging what is not there appends nothing). A deleted tag comes off through tag.deleted instead.',
  payload: payload({ conversation_id: Uuid(), tag_id: Uuid(), name: Text() }),
});

export const ConversationAttributesUpdated = defineEvent({
  type: 'conversation.attributes_updated',
  aggregate_type: 'conversation',
  description:
    "A conversation's custom attribute values changed (PUT /api/conversations/{id}). `custom_attributes` is the whole resulting set, sealed as personal data under the conversation's key (null once its contact is erased); `changed` names the attributes set or removed.",
  personal: { kind: 'conversation', id: 'conversation_id', fields: ['custom_attributes'] },
  payload: payload({
    conversation_id: Uuid(),
    custom_attributes: Personal(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
    changed: Type.Array(Text()),
  }),
});

export const ConversationMentioned = defineEvent({
  type: 'conversation.mentioned',
  aggregate_type: 'conversation',
  description:
    "A note mentioned a member (its `mentions`): one event per member, right after the note's conversation_part.created, in the same command. Ids only; the member finds it in `GET /api/me/mentions`.",
  payload: payload({
    conversation_id: Uuid(),
    part_id: Uuid(),
    member_id: Uuid(),
    mentioned_by: payload({ type: Type.Union(AUTHOR_TYPES.map((t) => Type.Literal(t))), id: Text() }),
  }),
});

/** A note's mentions: kept apart from ConversationEvent, which the conversation's own projectors fold (a mention changes no conversation). */
export const mentionEvents = [ConversationMentioned] as const;
export type MentionEvent = EventOf<typeof ConversationMentioned>;

export const ConversationMerged = defineEvent({
  type: 'conversation.merged',
  aggregate_type: 'conversation',
  description:
    "A conversation was merged into another of the same channel (`into`): it is closed (a `close` part comes first, unless it was closed already) and read-only from now on, and a later message on its thread (a bridge's post, an e-mail answering its messages) is filed in `into`. `into` gets a part of type `merged` naming it (`merged_from`) in the same command. Its parts stay where they are. Ids only.",
  payload: payload({
    conversation_id: Uuid(),
    into: Uuid(),
    merged_by: payload({ type: Type.Union(AUTHOR_TYPES.map((t) => Type.Literal(t))), id: Text() }),
  }),
});

export const conversationEvents = [
  ConversationCreated,
  ConversationPartCreated,
  ConversationPartRedacted,
  ConversationPartUnsent,
  ConversationTagged,
  ConversationUntagged,
  ConversationAttributesUpdated,
  ConversationMerged,
] as const;
export type ConversationEvent = EventOf<(typeof conversationEvents)[number]>;
export type PartPayload = EventOf<typeof ConversationPartCreated>['payload'];
