// Subject-access exports: one JSON document of everything about a contact,
// built in the background by a worker any process may run, stored sealed in
// Postgres (an erasure or redaction reaches the stored file too), downloadable
// until EXPORT_TTL_HOURS after completion. The exports table is primary data
// (a request is not an event), so it is listed under `tables`, not a projector's;
// the projector only deletes an erased contact's exports.
import { defineModule } from '../capability.js';
import { exportsProjector } from './exports.projection.js';
import { exportsRoutes } from './exports.routes.js';
import { exportsWorker } from './exports.worker.js';

export const exportsModule = defineModule({
  name: 'exports',
  events: [],
  projectors: [exportsProjector],
  tables: ['exports'],
  routes: exportsRoutes,
  workers: (deps) => [exportsWorker(deps)],
});
