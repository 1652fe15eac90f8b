// Where an upload's name and bytes live: a small port, with Postgres (the
// upload_contents table, beside the log) as the embedded default. What is
// stored is already sealed under the upload's data key (uploads.seal.ts): a
// storage never sees a file in the clear, and destroying the key is what
// forgets it; deleting the sealed copy (the projector, on redaction or
// erasure; the expiry, with its event) is what leaves no bytes in a dump.
import type { Db } from '../../commands/command.js';

export interface StoredUpload {
  sealedName: string;
  sealed: Buffer;
}

export interface UploadStorage {
  /** keeps an upload's sealed name and bytes (in the transaction of its upload.created) */
  put(db: Db, tenantId: string, id: string, content: StoredUpload): Promise<void>;
  get(db: Db, tenantId: string, id: string): Promise<StoredUpload | null>;
  /** the sealed names of these uploads, by id (the answers' reads: no bytes) */
  names(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** the uploads now belong to a part (in the transaction of the part's events) */
  claim(db: Db, tenantId: string, ids: readonly string[], part: { conversationId: string; partId: string }): Promise<void>;
  remove(db: Db, tenantId: string, ids: readonly string[]): Promise<void>;
}

export const postgresUploadStorage: UploadStorage = {
  async put(db, tenantId, id, c) {
    await db('upload_contents').insert({ tenant_id: tenantId, id, sealed_name: c.sealedName, sealed: c.sealed });
  },
  async get(db, tenantId, id) {
    const row = await db('upload_contents').where({ tenant_id: tenantId, id }).first('sealed_name', 'sealed');
    return row ? { sealedName: row.sealed_name as string, sealed: row.sealed as Buffer } : null;
  },
  async names(db, tenantId, ids) {
    if (ids.length === 0) return new Map();
    const rows: { id: string; sealed_name: string }[] = await db('upload_contents')
      .where({ tenant_id: tenantId })
      .whereIn('id', [...ids])
      .select('id', 'sealed_name');
    return new Map(rows.map((r) => [r.id, r.sealed_name]));
  },
  async claim(db, tenantId, ids, part) {
    await db('upload_contents')
      .where({ tenant_id: tenantId })
      .whereIn('id', [...ids])
      .update({ conversation_id: part.conversationId, part_id: part.partId });
  },
  async remove(db, tenantId, ids) {
    if (ids.length)
      await db('upload_contents')
        .where({ tenant_id: tenantId })
        .whereIn('id', [...ids])
        .del();
  },
};
