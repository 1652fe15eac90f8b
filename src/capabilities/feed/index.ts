// The change feed: every event's envelope, readable by seq (GET /api/events).
import { defineModule } from '../capability.js';
import { feedProjector } from './feed.projection.js';
import { feedRoutes } from './feed.routes.js';
import { defineErrors } from '../../platform/errors.js';

export { eventsAbout, feedTable, type FeedTable } from './feed.read.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  unknown_event_type: { status: 400, when: 'A `types` filter naming an event type the catalogue does not have.' },
  invalid_last_event_id: { status: 400, when: "An event stream's `Last-Event-ID` that is not a seq (a whole number)." },
  too_many_streams: { status: 429, when: 'Opening more event streams than a caller may hold at once in one process (STREAM_MAX_PER_CALLER).' },
});

export const feedModule = defineModule({ name: 'feed', errors, events: [], projectors: [feedProjector], routes: feedRoutes });
