import type { Db } from '../../commands/command.js';
import { constant, dateTime, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import { isUuid } from '../../platform/ids.js';
import type { RowOf } from '../../projections/table-batch.js';
import type { Storage } from './uploads.decider.js';
import { UPLOADER_TYPES } from './uploads.events.js';
import type { UPLOADS } from './uploads.projection.js';
import { openName, uploadKeys } from './uploads.seal.js';
import type { UploadStorage } from './storage.js';

/** A row of `uploads` (RowOf), its uploader's type narrowed and its size a number. */
export type UploadRow = Omit<RowOf<typeof UPLOADS>, 'size'> & { size: number | string; created_by_type: (typeof UPLOADER_TYPES)[number] };

/** An upload with its name opened (null once its key is gone). */
export type NamedUpload = UploadRow & { name: string | null };

/** Where a part's attachment of an upload downloads from (with a key: `conversations:read`). */
export const contentPath = (id: string) => `/api/uploads/${id}/content`;

export async function findUploads(db: Db, tenantId: string, ids: readonly string[]): Promise<UploadRow[]> {
  const valid = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  return valid.length ? db('uploads').where({ tenant_id: tenantId }).whereIn('id', valid) : [];
}

/** Uploads with their names, opened under their keys (one read of the keys, one of the names). */
export async function namedUploads(
  deps: { forgettable: Forgettable; storage: UploadStorage },
  db: Db,
  tenantId: string,
  ids: readonly string[],
): Promise<NamedUpload[]> {
  const rows = await findUploads(db, tenantId, ids);
  if (rows.length === 0) return [];
  const [keys, names] = await Promise.all([
    uploadKeys(
      deps.forgettable,
      db,
      tenantId,
      rows.map((r) => r.id),
    ),
    deps.storage.names(
      db,
      tenantId,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((r) => {
    const key = keys.get(r.id);
    const sealed = names.get(r.id);
    return { ...r, name: key && sealed ? openName(key, tenantId, r.id, sealed) : null };
  });
}

/** The workspace's storage: the bytes its uploads hold now, and the most they may. */
export async function storageOf(db: Db, tenantId: string, max: number): Promise<Storage> {
  const [row] = await db('uploads').where({ tenant_id: tenantId }).sum<{ used: string | null }[]>({ used: 'size' });
  return { used: Number(row?.used ?? 0), max };
}

export const uploadSchema = object(
  {
    type: constant('upload'),
    id: uuid,
    name: nullable(str({ description: "The file's name as uploaded. Personal data: sealed beside the log under the upload's key; null once destroyed." })),
    content_type: str({ description: 'What the bytes are, sniffed from them (not what the client said); `application/octet-stream` when unknown.' }),
    size: integer({ minimum: 0, description: 'Bytes.' }),
    expires_at: nullable(dateTime, { description: 'When it is deleted if still attached to nothing; null once attached.' }),
    conversation_id: nullable(uuid, { description: 'The conversation of the part it is attached to; null until then.' }),
    part_id: nullable(uuid, { description: 'The part it is attached to; null until then.' }),
    created_by: object({ type: oneOfStrings(UPLOADER_TYPES), id: str() }, { title: 'Uploader', description: 'Who uploaded it: a member, or an API key.' }),
    created_at: dateTime,
  },
  { title: 'Upload' },
);
export type Upload = Static<typeof uploadSchema>;

export const renderUpload = (r: NamedUpload): Upload => ({
  type: 'upload',
  id: r.id,
  name: r.name,
  content_type: r.content_type,
  size: Number(r.size),
  expires_at: r.part_id ? null : r.expires_at.toISOString(),
  conversation_id: r.conversation_id,
  part_id: r.part_id,
  created_by: { type: r.created_by_type, id: r.created_by_id },
  created_at: r.created_at.toISOString(),
});
