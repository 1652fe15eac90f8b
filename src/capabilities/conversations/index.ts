// Conversations: threads with a contact on a channel, made of parts (messages,
// comments, notes, state changes), plus the signed inbound route a bridge posts
// to and the worker that wakes snoozed conversations.
import { defineModule } from '../capability.js';
import { conversationEvents, mentionEvents } from './conversations.events.js';
import { conversationsProjector } from './conversations.projection.js';
import { conversationsRoutes } from './conversations.routes.js';
import { ConversationAnswers } from './answer-fields.js';
import { inboundRoute } from './inbound.route.js';
import { attributeValuesRoute } from './attribute-values.route.js';
import { unsnoozeWorker } from './unsnooze.worker.js';
import { conversationHistoryRoute } from './conversations.history.js';
import { defineErrors } from '../../platform/errors.js';

export type { ConversationEvent, MentionEvent } from './conversations.events.js';
export { AUTHOR_TYPES, PRIORITIES } from './conversations.events.js';
export { conversationsOfContact, partsPage, renderConversation, renderPart, partSchema } from './conversations.read.js';
export { ConversationAnswers, conversationFields, type ConversationAnswer, type ConversationFields, type FieldValues } from './answer-fields.js';
export { manageConversation, mergeConversation, replyToConversation, startConversation, tagConversation } from './conversations.commands.js';
export { setConversationAttributes } from './attribute-values.js';
export { ALREADY_SO, conversationActionFields, conversationActionSpec, type ConversationAction } from './conversation-actions.js';
export type { Author, ManageCommand } from './conversations.decider.js';
export { partFiles, withDownloadUrls, MAX_FILES_PER_PART, type AttachedFiles, type FileAttached, type PartFile, type PartFiles } from './part-files.js';
export type { Attachment } from './conversations.decider.js';
export { routedAssignment, type TeamRouting } from './routing.js';
export { fileChannelMessage, type ChannelMessage } from './conversations.decider.js';
export { loadRouting } from './routing.read.js';
export { conversationHasAttribute } from './attribute-values.route.js';
export type { StartCommand, StartEvents, StartState } from './conversations.decider.js';
export {
  contentOfContact,
  conversationIdsOfTeam,
  conversationIdsTagged,
  findConversation,
  findThread,
  liveConversation,
  threadKey,
} from './conversations.read.js';

export {
  BUILTIN_VIEW_IDS,
  checkConversationQuery,
  conversationMatches,
  conversationSearch,
  conversationViews,
  conversationWhere,
  type CustomView,
  type ViewLookups,
} from './conversations.search.js';
export { conversationFacts, conversationIdsWhere, conversationList } from './conversations.read.js';
export { querySchema as conversationQuerySchema } from './conversations.routes.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  unknown_channel: { status: 400, when: 'A conversation started on a channel the workspace does not have.' },
  unknown_contact: { status: 400, when: 'A conversation started for a contact the workspace does not have.' },
  unknown_member: { status: 400, when: 'Assigning to, or mentioning in a note, someone who is not an active member.' },
  mentions_on_notes_only: { status: 400, when: 'A reply of `message_type` comment naming `mentions`: only a note mentions teammates.' },
  unknown_team: { status: 400, when: 'Assigning to a team the workspace does not have.' },
  snooze_in_past: { status: 400, when: '`snoozed_until` is not in the future.' },
  invalid_timestamp: { status: 400, when: 'A signed inbound post whose `x-service-timestamp` is not Unix seconds.' },
  stale_timestamp: { status: 401, when: 'A signed inbound post with a valid signature but a timestamp more than 5 minutes from the service clock.' },
  conversation_exists: { status: 409, when: 'A conversation with this `external_id` already exists on the channel.' },
  conversation_already_closed: { status: 409, when: 'Closing a closed conversation.' },
  conversation_already_open: { status: 409, when: 'Opening an open conversation.' },
  conversation_merged: { status: 409, when: 'Replying to, changing, tagging or merging a conversation that was merged into another: it is read-only.' },
  unknown_conversation: {
    status: 400,
    when: "Naming in a body a conversation that is not the workspace's (a merge's `into`, a saved reply's `conversation_id`).",
  },
  merge_target_merged: { status: 422, when: 'Merging into a conversation (or a contact) that was itself merged into another: merge into that one.' },
  merge_across_contacts: { status: 422, when: "Merging into another contact's conversation: merge the contacts first." },
  merge_across_channels: {
    status: 422,
    when: "Merging into a conversation of another channel: its thread's messages and its replies belong to its own channel.",
  },
  not_author: { status: 403, when: 'Unsending a part someone else wrote.' },
  part_not_unsendable: { status: 409, when: 'Unsending a part that is not a teammate reply.' },
  part_redacted: { status: 409, when: 'Changing a part that was redacted.' },
  unsend_window_passed: { status: 409, when: 'Unsending a reply after its window closed.' },
});

/**
 * The module. What other capabilities keep of a conversation they add to its answer (`conversationFields`: sla's
 * `sla` and `statistics`, csat's `rating`), and views adds its custom views (`conversationViews`): this module
 * imports none of them.
 */
export const conversationsModule = defineModule({
  name: 'conversations',
  errors,
  events: [...conversationEvents, ...mentionEvents],
  personal: [
    { type: 'conversation', kind: 'conversation', fields: ['subject', 'custom_attributes'], erased: { custom_attributes: {} } },
    { type: 'conversation_part', kind: 'part', fields: ['body', 'attachments'], erased: { attachments: [] } },
  ],
  projectors: [conversationsProjector],
  routes: (deps) => {
    const answers = ConversationAnswers.of(deps.additions);
    return [inboundRoute(deps), ...conversationsRoutes(deps, answers), attributeValuesRoute(deps, answers), conversationHistoryRoute(deps)];
  },
  workers: (deps) => [unsnoozeWorker(deps)],
});
