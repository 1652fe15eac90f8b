// CSAT: customers rate a conversation 1 to 5, with an optional remark, through the
// API (an integration asking them) or the channel's bridge; one rating per
// conversation, the latest. The report counts them by team and by assignee.
// Conversations shows a conversation's rating (it imports this capability for the
// event and the rating's shape), so the conversation lookup is handed in here.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import type { RatedConversationLookup } from './csat.commands.js';
import { csatEvents } from './csat.events.js';
import { csatProjector } from './csat.projection.js';
import { csatRoutes } from './csat.routes.js';
import type { ThreadLookup } from './csat.bridge.js';

export type { CsatEvent } from './csat.events.js';
export type { RatedConversation } from './csat.decider.js';
export type { RatedConversationLookup } from './csat.commands.js';
export type { ThreadLookup } from './csat.bridge.js';
export { ratingSchema, renderRating, type RatingRef } from './csat.read.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  rated_at_ahead: {
    status: 400,
    when: "A bridge's rating (POST /api/channels/{id}/ratings) dated more than 5 minutes ahead of the service clock: it would stand over every rating given before that time.",
  },
});

/** The module, given how to find a rated conversation and a bridge's thread (conversations' reads: see RatedConversationLookup). */
export const csatModule = (lookups: { conversation: RatedConversationLookup; thread: ThreadLookup }) =>
  defineModule({
    name: 'csat',
    errors,
    events: csatEvents,
    // The remark of a rating in an answer (on its conversation, or the rating route's): sealed under the rating's key in stored answers.
    personal: [{ type: 'conversation_rating', kind: 'rating', fields: ['remark'] }],
    projectors: [csatProjector],
    routes: (deps) => csatRoutes(deps, lookups),
  });
