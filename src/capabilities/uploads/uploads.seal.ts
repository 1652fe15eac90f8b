// An upload's name and bytes, sealed beside the log under the upload's own
// data key (subject upload:<id> in data_keys, wrapped by the service's key, as
// every subject's): AES-256-GCM over the raw bytes, bound to the workspace and
// the upload, so a sealed copy opens nowhere else. The key is made with the
// upload (in its upload.created's transaction); once attached it is owned by
// the part's key, and destroying that (a redaction, the contact's erasure)
// destroys it: what is stored never opens again.
import type { Db } from '../../commands/command.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import { openBytesWith, sealBytesWith, sealWith, openWith } from '../../platform/crypto/seal.js';
import type { StoredUpload } from './storage.js';

export const uploadSubject = (id: string) => `upload:${id}`;
const aad = (tenantId: string, id: string, what: 'name' | 'bytes') => `upload|${what}|${tenantId}|${id}`;

export interface OpenedUpload {
  name: string;
  content: Buffer;
}

/** Makes the upload's key (in the transaction that appends its upload.created) and seals its name and bytes. */
export async function sealUpload(forgettable: Forgettable, db: Db, tenantId: string, id: string, name: string, content: Buffer): Promise<StoredUpload> {
  const key = await forgettable.createKey(db, tenantId, uploadSubject(id));
  return { sealedName: sealWith(key, aad(tenantId, id, 'name'), name), sealed: sealBytesWith(key, aad(tenantId, id, 'bytes'), content) };
}

/** The keys of these uploads, by upload id: a destroyed one (redacted, erased, expired) is absent. */
export async function uploadKeys(forgettable: Forgettable, db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const keys = await forgettable.keysOf(db, tenantId, ids.map(uploadSubject));
  return new Map(ids.flatMap((id) => (keys.has(uploadSubject(id)) ? [[id, keys.get(uploadSubject(id))!]] : [])));
}

export function openName(key: Buffer, tenantId: string, id: string, sealedName: string): string | null {
  try {
    return openWith(key, aad(tenantId, id, 'name'), sealedName);
  } catch {
    return null;
  }
}

export function openContent(key: Buffer, tenantId: string, id: string, sealed: Buffer): Buffer | null {
  try {
    return openBytesWith(key, aad(tenantId, id, 'bytes'), sealed);
  } catch {
    return null;
  }
}
