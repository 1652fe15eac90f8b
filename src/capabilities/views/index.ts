// Custom views: saved conversations filters (the conversations filter
// language), private to their member or shared with the workspace. Views
// imports conversations (the language), and adds its lookups to conversations'
// `conversationViews` extension point for ?view_id= and the counts.
import { addTo } from '../additions.js';
import { defineModule } from '../capability.js';
import { conversationViews } from '../conversations/index.js';
import { viewEvents } from './views.events.js';
import { viewsProjector } from './views.projection.js';
import { viewsRoutes } from './views.routes.js';
import { viewLookups } from './views.read.js';
import { defineErrors } from '../../platform/errors.js';

export { privateViewEventsSql } from './views.read.js';
export { privateViewEvent } from './views.decider.js';
export type { ViewEvent } from './views.events.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  limit_reached: {
    status: 422,
    when: "Creating or making a view beyond its quota: a workspace's 101st workspace view, or a member's 26th private view.",
  },
});

export const viewsModule = defineModule({
  name: 'views',
  errors,
  events: viewEvents,
  projectors: [viewsProjector],
  adds: [addTo(conversationViews, viewLookups)],
  routes: viewsRoutes,
});
