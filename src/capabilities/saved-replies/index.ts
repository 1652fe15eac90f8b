// Saved replies: the workspace's canned answers (at most 150), with
// placeholders for the conversation's contact, the conversation and the
// member sending it, rendered on the server (saved-replies.template.ts) so
// every client sends the same text. Workspace content, not personal data:
// nothing here is sealed.
import { defineModule } from '../capability.js';
import { savedReplyEvents } from './saved-replies.events.js';
import { savedRepliesProjector } from './saved-replies.projection.js';
import { savedRepliesRoutes } from './saved-replies.routes.js';
import { defineErrors } from '../../platform/errors.js';

export type { SavedReplyEvent } from './saved-replies.events.js';
export { parseTemplate, renderTemplate, type Lookup, type Segment } from './saved-replies.template.js';
export { renderForConversation } from './saved-replies.render.js';
export { findSavedReply } from './saved-replies.read.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  saved_reply_exists: { status: 409, when: 'A saved reply with this name already exists in the workspace.' },
  limit_reached: { status: 422, when: "Creating a workspace's 151st saved reply." },
  unknown_placeholder: { status: 400, when: "A saved reply's `body` holds a placeholder the service does not know; the message names it and its offset." },
  invalid_placeholder: { status: 400, when: "A saved reply's `body` holds a malformed placeholder; the message says where and why." },
});

export const savedRepliesModule = defineModule({
  name: 'saved-replies',
  errors,
  events: savedReplyEvents,
  projectors: [savedRepliesProjector],
  routes: savedRepliesRoutes,
});
