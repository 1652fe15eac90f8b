import { defineEvent, Instant, Nullable, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// SLA policies are the workspace's own rules, and a conversation's SLA events carry
// ids and instants only: nothing here is personal data.

export const TARGETS = ['first_response', 'next_response', 'resolution'] as const;
export type Target = (typeof TARGETS)[number];
const TargetT = () => Type.Union(TARGETS.map((t) => Type.Literal(t)));
const Seconds = () => Nullable(Type.Integer({ minimum: 1 }));

const Match = () =>
  payload({
    priority: Type.Optional(Type.Array(Text())),
    team_id: Type.Optional(Type.Array(Text())),
    channel_id: Type.Optional(Type.Array(Uuid())),
    query: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'A tree of the conversations filter language (see POST /api/conversations/search).' }),
    ),
  });

const PolicyFields = {
  name: Text(),
  match: Match(),
  first_response_target_seconds: Seconds(),
  next_response_target_seconds: Seconds(),
  resolution_target_seconds: Seconds(),
  business_hours: Type.Boolean(),
};

export const SlaPolicyCreated = defineEvent({
  type: 'sla_policy.created',
  aggregate_type: 'sla_policy',
  description: 'An SLA policy was created; it is tried after the policies created before it (the first that matches a conversation applies).',
  payload: payload({ id: Uuid(), ...PolicyFields }),
});

export const SlaPolicyUpdated = defineEvent({
  type: 'sla_policy.updated',
  aggregate_type: 'sla_policy',
  description: "A policy's fields were replaced (the whole policy). Conversations take the change when they next change themselves.",
  payload: payload({ id: Uuid(), ...PolicyFields }),
});

export const SlaPolicyDeleted = defineEvent({
  type: 'sla_policy.deleted',
  aggregate_type: 'sla_policy',
  description: 'A policy was deleted. Conversations under it lose it (or take the next matching one) when they next change.',
  payload: payload({ id: Uuid() }),
});

export const ConversationSlaApplied = defineEvent({
  type: 'conversation.sla_applied',
  aggregate_type: 'conversation_sla',
  description:
    "A conversation's SLA changed: the policy that applies (null: none any more) and its pending due dates. Sent when a policy first applies and whenever a due date moves: a next-response target starts (a customer message after a teammate reply), the resolution clock pauses (snoozed: due null, the business seconds left kept) or resumes, the conversation's priority, team or channel makes another policy apply.",
  payload: payload({
    conversation_id: Uuid(),
    policy_id: Nullable(Uuid()),
    first_response_due_at: Nullable(Instant()),
    next_response_due_at: Nullable(Instant()),
    /** when the customer's wait that the next-response target times began */
    next_response_since: Nullable(Instant()),
    resolution_due_at: Nullable(Instant()),
    /** while the resolution clock is paused (snoozed): the seconds it has left */
    resolution_remaining_seconds: Nullable(Type.Integer({ minimum: 0 })),
  }),
});

export const ConversationSlaBreached = defineEvent({
  type: 'conversation.sla_breached',
  aggregate_type: 'conversation_sla',
  description:
    'A target was missed: sent by the SLA worker at the deadline (within its poll interval, about a second), whether or not anyone touches the conversation; once per target (per customer wait, for next_response).',
  payload: payload({ conversation_id: Uuid(), policy_id: Uuid(), target: TargetT(), due_at: Instant() }),
});

export const ConversationSlaMet = defineEvent({
  type: 'conversation.sla_met',
  aggregate_type: 'conversation_sla',
  description:
    'A target was met in time: the first teammate reply (first_response), the teammate reply ending a customer wait (next_response), or the close (resolution), at or before its due date.',
  payload: payload({ conversation_id: Uuid(), policy_id: Uuid(), target: TargetT(), due_at: Instant(), met_at: Instant() }),
});

export const slaEvents = [SlaPolicyCreated, SlaPolicyUpdated, SlaPolicyDeleted, ConversationSlaApplied, ConversationSlaBreached, ConversationSlaMet] as const;
export type SlaEvent = EventOf<(typeof slaEvents)[number]>;
export type SlaPolicyEvent = Extract<SlaEvent, { aggregate_type: 'sla_policy' }>;
