// Conversations: threads with a contact on a channel, made of parts (messages,
// comments, notes, state changes), plus the signed inbound route a bridge posts
// to and the worker that wakes snoozed conversations.
import { defineModule } from '../capability.js';
import { conversationEvents } from './conversations.events.js';
import { conversationsProjector } from './conversations.projection.js';
import { conversationsRoutes } from './conversations.routes.js';
import type { ViewLookups } from './conversations.search.js';
import { inboundRoute } from './inbound.route.js';
import { unsnoozeWorker } from './unsnooze.worker.js';

export type { ConversationEvent } from './conversations.events.js';
export { conversationsOfContact, partsPage, renderConversation, renderPart, conversationSchema, partSchema } from './conversations.read.js';
export { startConversation } from './conversations.commands.js';
export type { StartCommand, StartEvents, StartState } from './conversations.decider.js';
export { contentOfContact, conversationIdsOfTeam, conversationIdsTagged, findConversation } from './conversations.read.js';

export { BUILTIN_VIEW_IDS, checkConversationQuery, conversationSearch, type CustomView, type ViewLookups } from './conversations.search.js';
export { conversationList } from './conversations.read.js';
export { querySchema as conversationQuerySchema } from './conversations.routes.js';

/** The module, given how to find the custom views (see ViewLookups: views imports conversations, not the reverse). */
export const conversationsModule = (views: ViewLookups) => defineModule({
  name: 'conversations',
  events: conversationEvents,
  personal: [
    { type: 'conversation', kind: 'conversation', fields: ['subject'] },
    { type: 'conversation_part', kind: 'part', fields: ['body', 'attachments'], erased: { attachments: [] } },
  ],
  projectors: [conversationsProjector],
  routes: (deps) => [inboundRoute(deps), ...conversationsRoutes(deps, views)],
  workers: (deps) => [unsnoozeWorker(deps)],
});
