// A conversation's `sla` and `statistics` as its answers show them (issue 34, items 4
// and 5), computed from this capability's own tables and added to every conversation
// answer through conversations' `conversationFields` extension point (index.ts), with
// one read per page or batch, never one per conversation.
import { arrayOf, bool, dateTime, integer, nullable, object, oneOfStrings, uuid, type Static } from '../../api/schemas.js';

export const SLA_TARGETS = ['first_response', 'next_response', 'resolution'] as const;

export const slaSchema = nullable(
  object(
    {
      policy_id: nullable(uuid),
      first_response_due_at: nullable(dateTime),
      next_response_due_at: nullable(dateTime),
      resolution_due_at: nullable(dateTime),
      resolution_paused: bool,
      breaches: arrayOf(object({ target: oneOfStrings(SLA_TARGETS), due_at: dateTime, breached_at: dateTime })),
      met: arrayOf(object({ target: oneOfStrings(SLA_TARGETS), due_at: dateTime, met_at: dateTime })),
    },
    {
      title: 'ConversationSla',
      description:
        'The SLA policy that applies and its pending due dates (null once a target is met or breached, or while the resolution clock is paused); settled targets in breaches and met. Null when no policy applies, in a past state (`?as_of_seq=`), and on a new conversation until the SLA worker has looked at it (within about a second).',
    },
  ),
);
export type ConversationSla = Static<typeof slaSchema>;

const secondsField = nullable(integer({ minimum: 0 }));
export const statisticsSchema = object(
  {
    first_response_at: nullable(dateTime),
    first_response_seconds: secondsField,
    first_response_business_seconds: secondsField,
    last_response_at: nullable(dateTime),
    first_closed_at: nullable(dateTime),
    last_closed_at: nullable(dateTime),
    resolution_seconds: secondsField,
    resolution_business_seconds: secondsField,
    reopens: integer({ minimum: 0 }),
    teammate_replies: integer({ minimum: 0 }),
    customer_replies: integer({ minimum: 0 }),
  },
  {
    title: 'ConversationStatistics',
    description:
      "Response statistics: the first teammate reply (a comment) and its seconds after creation, the last one, the first and last close and the resolution seconds (creation to the last close), in calendar seconds and in business seconds on the workspace's business hours (null without them), reopens, and replies by teammates and by the customer.",
  },
);
export type ConversationStatistics = Static<typeof statisticsSchema>;

// A type, not an interface: what conversations' extension point takes is a record of fields.
export type ConversationMetrics = {
  sla: ConversationSla;
  statistics: ConversationStatistics | null;
};
