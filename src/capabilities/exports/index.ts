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
import { defineErrors } from '../../platform/errors.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  export_in_progress: { status: 409, when: "A contact's second active export; the message and `Location` name the first." },
  export_not_ready: { status: 409, when: 'Downloading an export that has not completed.' },
  export_failed: { status: 409, when: 'Downloading an export that failed; request a new one.' },
  export_expired: { status: 410, when: 'Downloading an export whose file expired; request a new one.' },
  contact_erased: { status: 410, when: 'Exporting an erased contact.' },
});

export const exportsModule = defineModule({
  name: 'exports',
  errors,
  events: [],
  projectors: [exportsProjector],
  tables: ['exports'],
  routes: exportsRoutes,
  workers: (deps) => [exportsWorker(deps)],
});
