// File uploads: a file is uploaded once (POST /api/uploads), then attached by
// its id to a reply, a note or a new conversation (`upload_ids`), as Intercom's,
// Zendesk's and Front's attachments are. Its name and bytes are personal data
// kept beside the log, sealed under the upload's own key, which the part it is
// attached to owns: the part's redaction and its contact's erasure destroy the
// file, and the rows go in the same transaction. An upload attached to nothing
// expires. E-mail replies carry the files as MIME parts; a bridge's delivery
// carries a download URL that expires.
import { addTo } from '../additions.js';
import { defineModule } from '../capability.js';
import { partFiles } from '../conversations/index.js';
import { defineErrors } from '../../platform/errors.js';
import { postgresUploadStorage } from './storage.js';
import { uploadEvents } from './uploads.events.js';
import { uploadFiles } from './uploads.files.js';
import { uploadsProjector } from './uploads.projection.js';
import { uploadsRoutes } from './uploads.routes.js';
import { uploadExpiryWorker } from './uploads.worker.js';

export type { UploadEvent } from './uploads.events.js';
export { uploadExpiryWorker } from './uploads.worker.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  upload_too_large: {
    status: 413,
    when: 'Uploading a file larger than UPLOAD_MAX_BYTES (refused by its Content-Length before it is read, when it declares one).',
  },
  storage_quota_exceeded: { status: 413, when: "Uploading a file that would take the workspace's uploads past UPLOAD_STORAGE_MAX_BYTES." },
  invalid_upload: { status: 400, when: 'Uploading an empty file, or a multipart form without exactly one file part.' },
  unknown_upload: {
    status: 400,
    when: 'A reply, a note or a new conversation naming in `upload_ids` an id that is no upload of the workspace (or one gone: expired, erased).',
  },
  upload_attached: { status: 409, when: 'Attaching an upload that is already attached to a part: upload the file again to attach it twice.' },
  upload_expired: { status: 422, when: 'Attaching an upload after its `expires_at` (UPLOAD_TTL_SECONDS after it was uploaded).' },
});

/** Postgres, the embedded default; the port is storage.ts. */
const storage = postgresUploadStorage;

export const uploadsModule = defineModule({
  name: 'uploads',
  errors,
  events: uploadEvents,
  projectors: [uploadsProjector],
  tables: ['upload_contents'],
  // An upload in a stored answer (an Idempotency-Key's) keeps its name sealed under the upload's key.
  personal: [{ type: 'upload', kind: 'upload', fields: ['name'] }],
  adds: [addTo(partFiles, (deps) => uploadFiles(deps, storage))],
  routes: (deps) => uploadsRoutes(deps, storage, uploadFiles(deps, storage)),
  workers: (deps) => [uploadExpiryWorker(deps, storage)],
});
