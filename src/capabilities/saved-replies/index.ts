// Saved replies: the workspace's canned answers (at most 150), with
// placeholders for the conversation's contact, the conversation and the
// member sending it, rendered on the server (saved-replies.template.ts) so
// every client sends the same text. Workspace content, not personal data:
// nothing here is sealed.
import { defineModule } from '../capability.js';
import { savedReplyEvents } from './saved-replies.events.js';
import { savedRepliesProjector } from './saved-replies.projection.js';
import { savedRepliesRoutes } from './saved-replies.routes.js';

export type { SavedReplyEvent } from './saved-replies.events.js';
export { parseTemplate, renderTemplate, type Lookup, type Segment } from './saved-replies.template.js';

export const savedRepliesModule = defineModule({ name: 'saved-replies', events: savedReplyEvents, projectors: [savedRepliesProjector], routes: savedRepliesRoutes });
