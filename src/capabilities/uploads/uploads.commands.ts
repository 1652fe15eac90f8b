import type { CommandSpec } from '../../commands/command.js';
import type { Forgettable } from '../../eventstore/forgettable.js';
import { decideCreateUpload, decideExpire, type NewUpload, type Storage } from './uploads.decider.js';
import type { UploadEvent } from './uploads.events.js';
import { findUploads, storageOf } from './uploads.read.js';
import { sealUpload, uploadSubject } from './uploads.seal.js';
import type { UploadStorage } from './storage.js';

interface Keeping {
  forgettable: Forgettable;
  storage: UploadStorage;
}

/** An upload: its event, and beside it (same transaction) its key and its sealed name and bytes. */
export const createUpload = (
  cmd: NewUpload & { name: string; content: Buffer; maxStorage: number },
  { forgettable, storage }: Keeping,
): CommandSpec<Storage, UploadEvent> => ({
  name: 'CreateUpload',
  load: (db, ctx) => storageOf(db, ctx.tenantId, cmd.maxStorage),
  decide: (s) => decideCreateUpload(cmd, s),
  async beside(db, events, ctx) {
    if (events.length === 0) return;
    await storage.put(db, ctx.tenantId, cmd.uploadId, await sealUpload(forgettable, db, ctx.tenantId, cmd.uploadId, cmd.name, cmd.content));
  },
});

/** Deletes an upload attached to nothing once its time has come: its key and its bytes go with its event. */
export const expireUpload = (
  uploadId: string,
  now: Date,
  { forgettable, storage }: Keeping,
): CommandSpec<{ id: string; attached: boolean; expiresAt: Date } | null, UploadEvent> => ({
  name: 'ExpireUpload',
  load: async (db, ctx) => {
    const [row] = await findUploads(db, ctx.tenantId, [uploadId]);
    return row ? { id: row.id, attached: row.part_id !== null, expiresAt: row.expires_at } : null;
  },
  decide: (upload) => decideExpire(upload, now),
  async beside(db, events, ctx) {
    if (events.length === 0) return;
    await forgettable.destroy(db, ctx.tenantId, [uploadSubject(uploadId)]);
    await storage.remove(db, ctx.tenantId, [uploadId]);
  },
});
