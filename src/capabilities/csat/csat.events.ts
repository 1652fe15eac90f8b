import { defineEvent, Instant, Nullable, payload, Personal, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

const RATER_TYPES = ['contact', 'member', 'api_key'] as const;

export const ConversationRated = defineEvent({
  type: 'conversation.rated',
  aggregate_type: 'conversation',
  description:
    "A customer rated a conversation (CSAT, 1 to 5), through the API or the channel's bridge. One rating per conversation: a later one replaces it (`replaces` names the rating it replaced). `assignee_id` and `team_id` are the conversation's when it was rated. `rated_at`, on a rating the bridge posted, is the time the customer gave it (signed by the bridge; a rating older than the one in force is not recorded); otherwise the rating's time is the event's. The remark is personal content, sealed under the rating's key, which the contact's erasure destroys.",
  personal: { kind: 'rating', id: 'rating_id', fields: ['remark'], owner: { kind: 'conversation', id: 'conversation_id' }, fresh: true },
  postedFor: { contact: 'contact_id' },
  payload: payload({
    conversation_id: Uuid(),
    rating_id: Uuid(),
    score: Type.Integer({ minimum: 1, maximum: 5 }),
    remark: Personal(Text()),
    contact_id: Uuid(),
    channel_id: Uuid(),
    assignee_id: Nullable(Uuid()),
    team_id: Nullable(Text()),
    rated_by: payload({ type: Type.Union(RATER_TYPES.map((t) => Type.Literal(t))), id: Text() }),
    replaces: Nullable(Uuid()),
    /** when the customer rated, as the bridge signed it; absent: the event's own time */
    rated_at: Type.Optional(Instant()),
  }),
});

export const csatEvents = [ConversationRated] as const;
export type CsatEvent = EventOf<(typeof csatEvents)[number]>;
