// Pure rules of uploads. An upload is a file of at most UPLOAD_MAX_BYTES (the
// route refuses more before reading it all), within the workspace's storage
// (UPLOAD_STORAGE_MAX_BYTES, loaded under the workspace's lock so that two
// uploads cannot both take the last bytes). It waits UPLOAD_TTL_SECONDS to be
// attached; a part attaches an upload of its own workspace that is neither
// attached elsewhere nor expired, and an upload attached to nothing by then
// expires.
import { AppError, BadRequest, Conflict, Unprocessable } from '../../platform/errors.js';
import type { AttachedFiles, PartFile } from '../conversations/index.js';
import type { Uploader, UploadEvent } from './uploads.events.js';

export interface NewUpload {
  uploadId: string;
  contentType: string;
  size: number;
  expiresAt: Date;
  createdBy: Uploader;
}

/** The workspace's storage as an upload needs it: bytes held by its uploads, and the most it may hold. */
export interface Storage {
  used: number;
  max: number;
}

export const storageFull = (s: Storage, size: number) =>
  new AppError(
    413,
    'storage_quota_exceeded',
    `The workspace's uploads hold ${s.used} of their ${s.max} bytes (UPLOAD_STORAGE_MAX_BYTES): this file of ${size} would not fit. Files expire unattached, and go with redacted parts and erased contacts.`,
  );

export function decideCreateUpload(cmd: NewUpload, storage: Storage): UploadEvent[] {
  if (storage.used + cmd.size > storage.max) throw storageFull(storage, cmd.size);
  return [
    {
      type: 'upload.created',
      aggregate_type: 'upload',
      aggregate_id: cmd.uploadId,
      payload: {
        upload_id: cmd.uploadId,
        content_type: cmd.contentType,
        size: cmd.size,
        expires_at: cmd.expiresAt.toISOString(),
        created_by: cmd.createdBy,
      },
    },
  ];
}

/** An upload the expiry found: it expires if it is still attached to nothing and its time has come. */
export function decideExpire(upload: { id: string; attached: boolean; expiresAt: Date } | null, now: Date): UploadEvent[] {
  if (!upload || upload.attached || upload.expiresAt.getTime() > now.getTime()) return [];
  return [{ type: 'upload.expired', aggregate_type: 'upload', aggregate_id: upload.id, payload: { upload_id: upload.id } }];
}

/** The attachments a part gets for these upload ids, in their order, and an upload.attached each; the first id that may not be attached refuses. */
export function attachUploads(ids: readonly string[], files: readonly PartFile[], part: { conversationId: string; partId: string }): AttachedFiles {
  const byId = new Map(files.map((f) => [f.id, f]));
  const attachments = ids.map((id, i) => {
    const field = `upload_ids[${i}]`;
    const f = byId.get(id.toLowerCase());
    if (!f) throw new BadRequest('unknown_upload', `${field} names no upload of this workspace.`, field);
    if (f.state === 'attached') throw new Conflict('upload_attached', `${field} is already attached to a part: upload the file again to attach it twice.`);
    if (f.state === 'expired')
      throw new Unprocessable('upload_expired', `${field} expired before it was attached (UPLOAD_TTL_SECONDS): upload the file again.`, field);
    return f.attachment;
  });
  return {
    attachments,
    events: attachments.map((a) => ({
      type: 'upload.attached',
      aggregate_type: 'upload',
      aggregate_id: a.upload_id!,
      payload: { upload_id: a.upload_id!, conversation_id: part.conversationId, part_id: part.partId },
    })),
  };
}
