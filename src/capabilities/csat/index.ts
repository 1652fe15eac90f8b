// CSAT: customers rate a conversation 1 to 5, with an optional remark, through the
// API (an integration asking them) or the channel's bridge; one rating per
// conversation, the latest. The report counts them by team and by assignee.
// A conversation's answer shows its rating: this module adds it to conversations'
// `conversationFields` (csat imports conversations, not the reverse).
import { addTo } from '../additions.js';
import { defineModule } from '../capability.js';
import { conversationFields } from '../conversations/index.js';
import { defineErrors } from '../../platform/errors.js';
import { csatEvents } from './csat.events.js';
import { csatProjector } from './csat.projection.js';
import { csatRoutes } from './csat.routes.js';
import { conversationOfThread, ratedConversation, ratingField } from './csat.read.js';

export type { CsatEvent } from './csat.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  rated_at_ahead: {
    status: 400,
    when: "A bridge's rating (POST /api/channels/{id}/ratings) dated more than 5 minutes ahead of the service clock: it would stand over every rating given before that time.",
  },
});

export const csatModule = defineModule({
  name: 'csat',
  errors,
  events: csatEvents,
  // The remark of a rating in an answer (on its conversation, or the rating route's): sealed under the rating's key in stored answers.
  personal: [{ type: 'conversation_rating', kind: 'rating', fields: ['remark'] }],
  projectors: [csatProjector],
  adds: [addTo(conversationFields, ratingField)],
  routes: (deps) => csatRoutes(deps, { conversation: ratedConversation, thread: conversationOfThread }),
});
