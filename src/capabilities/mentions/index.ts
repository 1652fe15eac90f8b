// Mentions: a note names teammates (the reply's `mentions`, conversations'
// rule), each gets a conversation.mentioned, and this capability keeps them as
// each member's list, GET /api/me/mentions (as Intercom's and Front's
// mentions). It reads conversations' event and adds nothing to conversations.
import { defineModule } from '../capability.js';
import { mentionsProjector } from './mentions.projection.js';
import { mentionsRoutes } from './mentions.routes.js';

export const mentionsModule = defineModule({
  name: 'mentions',
  // Its one event is conversations' (a note's part of a reply): it appends none of its own.
  events: [],
  projectors: [mentionsProjector],
  routes: mentionsRoutes,
});
