// Deletes uploads attached to nothing once they expire (UPLOAD_TTL_SECONDS),
// through the command path: each is an upload.expired event whose transaction
// destroys the upload's key and bytes.
import type { CoreDeps, Worker } from '../capability.js';
import { AppError } from '../../platform/errors.js';
import { expireUpload } from './uploads.commands.js';
import type { UploadStorage } from './storage.js';

const EVERY_MS = 60_000;
const BATCH = 100;

export interface UploadExpiryWorker extends Worker {
  /** one pass; returns how many uploads expired */
  tick(): Promise<number>;
}

export function uploadExpiryWorker(deps: CoreDeps, storage: UploadStorage): UploadExpiryWorker {
  const { clock, log } = deps;
  const keeping = { forgettable: deps.forgettable, storage };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;

  async function pass(): Promise<number> {
    const now = clock.now();
    // Across workspaces on purpose (the owner pool): the worker serves them all; each expiry acts as its own.
    const due: { tenant_id: string; id: string }[] = await deps.scope.outside(() =>
      (deps.ownerDb ?? deps.db)('uploads').whereNull('part_id').andWhere('expires_at', '<=', now).orderBy('expires_at').limit(BATCH).select('tenant_id', 'id'),
    );
    let expired = 0;
    for (const u of due) {
      try {
        const { events } = await deps.scope.run(u.tenant_id, () =>
          deps.shell.execute({ tenantId: u.tenant_id, now, actor: { type: 'system', id: 'upload-expiry' } }, expireUpload(u.id, now, keeping)),
        );
        expired += events.length;
      } catch (e) {
        if (!(e instanceof AppError)) log.warn({ err: e, upload_id: u.id }, 'upload expiry failed');
      }
    }
    return expired;
  }

  const tick = () => (running ??= pass().finally(() => (running = null)));
  return {
    name: 'upload-expiry',
    tick,
    async start() {
      timer = setInterval(() => void tick().catch((e) => log.warn({ err: e }, 'upload expiry pass failed')), EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
