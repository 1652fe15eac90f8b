// What uploads gives conversations through its `partFiles` extension point:
// the files a reply, a note or a new conversation names by `upload_ids`.
import type { CoreDeps } from '../capability.js';
import { isUuid } from '../../platform/ids.js';
import type { PartFiles } from '../conversations/index.js';
import { attachUploads } from './uploads.decider.js';
import { contentPath, findUploads, namedUploads } from './uploads.read.js';
import { openContent, openName, uploadKeys, uploadSubject } from './uploads.seal.js';
import { downloadToken } from './download-token.js';
import type { UploadStorage } from './storage.js';

export function uploadFiles(deps: CoreDeps, storage: UploadStorage): PartFiles {
  const { forgettable } = deps;
  return {
    async load(db, tenantId, ids, now) {
      const rows = await namedUploads({ forgettable, storage }, db, tenantId, ids);
      return rows.map((r) => ({
        id: r.id,
        state: r.part_id ? 'attached' : r.expires_at.getTime() <= now.getTime() ? 'expired' : 'ready',
        attachment: {
          url: contentPath(r.id),
          ...(r.name !== null ? { name: r.name } : {}),
          content_type: r.content_type,
          size: Number(r.size),
          upload_id: r.id,
        },
      }));
    },
    attach: attachUploads,
    async claim(db, tenantId, ids, part) {
      // The part's key owns the files' keys from its commit on: its redaction, and the erasure of its contact
      // (whose key owns the conversation's, which owns the part's), destroy them.
      await forgettable.adopt(db, tenantId, ids.map(uploadSubject), `part:${part.partId}`);
      await storage.claim(db, tenantId, ids, part);
    },
    async open(db, tenantId, given) {
      if (!isUuid(given)) return null;
      const id = given.toLowerCase();
      const [stored, keys, [row]] = await Promise.all([
        storage.get(db, tenantId, id),
        uploadKeys(forgettable, db, tenantId, [id]),
        findUploads(db, tenantId, [id]),
      ]);
      const key = keys.get(id);
      if (!stored || !key || !row) return null;
      const content = openContent(key, tenantId, id, stored.sealed);
      const name = openName(key, tenantId, id, stored.sealedName);
      return content && name !== null ? { name, content_type: row.content_type, content } : null;
    },
    signedUrl: (tenantId, id, expiresAt) => `${deps.config.publicUrl}/api/downloads/${downloadToken(deps.sealer, tenantId, id, expiresAt)}`,
  };
}
