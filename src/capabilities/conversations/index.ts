// Conversations: threads with a contact on a channel, made of parts (messages,
// comments, notes, state changes), plus the signed inbound route a bridge posts
// to and the worker that wakes snoozed conversations.
import { defineModule } from '../capability.js';
import { conversationEvents } from './conversations.events.js';
import { conversationsProjector } from './conversations.projection.js';
import { conversationsRoutes } from './conversations.routes.js';
import type { ViewLookups } from './conversations.search.js';
import type { MetricsLookup } from './metrics.js';
import { inboundRoute } from './inbound.route.js';
import { attributeValuesRoute } from './attribute-values.route.js';
import { unsnoozeWorker } from './unsnooze.worker.js';
import { conversationHistoryRoute } from './conversations.history.js';
import { defineErrors } from '../../platform/errors.js';

export type { ConversationEvent } from './conversations.events.js';
export { conversationsOfContact, partsPage, renderConversation, renderPart, conversationSchema, partSchema } from './conversations.read.js';
export { startConversation } from './conversations.commands.js';
export { routedAssignment, type TeamRouting } from './routing.js';
export { fileChannelMessage, type ChannelMessage } from './conversations.decider.js';
export { loadRouting } from './routing.read.js';
export { conversationHasAttribute } from './attribute-values.route.js';
export { ratingLookups } from './rated-conversation.js';
export type { StartCommand, StartEvents, StartState } from './conversations.decider.js';
export { contentOfContact, conversationIdsOfTeam, conversationIdsTagged, findConversation, threadKey } from './conversations.read.js';

export {
  BUILTIN_VIEW_IDS,
  checkConversationQuery,
  conversationMatches,
  conversationSearch,
  type CustomView,
  type ViewLookups,
} from './conversations.search.js';
export { conversationFacts, conversationList } from './conversations.read.js';
export { querySchema as conversationQuerySchema } from './conversations.routes.js';
export {
  SLA_TARGETS,
  slaSchema,
  statisticsSchema,
  withMetrics,
  type ConversationMetrics,
  type ConversationSla,
  type ConversationStatistics,
  type MetricsLookup,
} from './metrics.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  unknown_channel: { status: 400, when: 'A conversation started on a channel the workspace does not have.' },
  unknown_contact: { status: 400, when: 'A conversation started for a contact the workspace does not have.' },
  unknown_member: { status: 400, when: 'Assigning to someone who is not an active member.' },
  unknown_team: { status: 400, when: 'Assigning to a team the workspace does not have.' },
  snooze_in_past: { status: 400, when: '`snoozed_until` is not in the future.' },
  invalid_timestamp: { status: 400, when: 'A signed inbound post whose `x-service-timestamp` is not Unix seconds.' },
  stale_timestamp: { status: 401, when: 'A signed inbound post with a valid signature but a timestamp more than 5 minutes from the service clock.' },
  conversation_exists: { status: 409, when: 'A conversation with this `external_id` already exists on the channel.' },
  conversation_already_closed: { status: 409, when: 'Closing a closed conversation.' },
  conversation_already_open: { status: 409, when: 'Opening an open conversation.' },
  not_author: { status: 403, when: 'Unsending a part someone else wrote.' },
  part_not_unsendable: { status: 409, when: 'Unsending a part that is not a teammate reply.' },
  part_redacted: { status: 409, when: 'Changing a part that was redacted.' },
  unsend_window_passed: { status: 409, when: 'Unsending a reply after its window closed.' },
});

/**
 * The module, given how to find the custom views (see ViewLookups: views imports conversations, not the reverse)
 * and each conversation's `sla` and `statistics` (see MetricsLookup: sla imports conversations).
 */
export const conversationsModule = (views: ViewLookups, metrics: MetricsLookup) =>
  defineModule({
    name: 'conversations',
    errors,
    events: conversationEvents,
    personal: [
      { type: 'conversation', kind: 'conversation', fields: ['subject', 'custom_attributes'], erased: { custom_attributes: {} } },
      { type: 'conversation_part', kind: 'part', fields: ['body', 'attachments'], erased: { attachments: [] } },
    ],
    projectors: [conversationsProjector],
    routes: (deps) => [inboundRoute(deps), ...conversationsRoutes(deps, views, metrics), attributeValuesRoute(deps, metrics), conversationHistoryRoute(deps)],
    workers: (deps) => [unsnoozeWorker(deps)],
  });
