// The change feed: every event's envelope, readable by seq (GET /api/events).
import { defineModule } from '../capability.js';
import { feedProjector } from './feed.projection.js';
import { feedRoutes } from './feed.routes.js';

export { eventsAbout, feedTable, type FeedTable } from './feed.read.js';

export const feedModule = defineModule({ name: 'feed', events: [], projectors: [feedProjector], routes: feedRoutes });
