// Custom views: saved conversations filters (the conversations filter
// language), private to their member or shared with the workspace. Views
// imports conversations (the language); conversations gets viewLookups handed
// in by src/capabilities/index.ts for ?view_id= and the counts.
import { defineModule } from '../capability.js';
import { viewEvents } from './views.events.js';
import { viewsProjector } from './views.projection.js';
import { viewsRoutes } from './views.routes.js';

export { viewLookups } from './views.read.js';
export type { ViewEvent } from './views.events.js';

export const viewsModule = defineModule({ name: 'views', events: viewEvents, projectors: [viewsProjector], routes: viewsRoutes });
