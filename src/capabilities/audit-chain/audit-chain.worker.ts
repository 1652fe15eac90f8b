// Scheduled checkpoints: every AUDIT_CHECKPOINT_INTERVAL_SECONDS, a signed
// checkpoint of the chain head of every workspace whose log moved since its last
// checkpoint. An auditor who keeps them (GET /api/audit/checkpoints) can later
// prove that nothing up to each was rewritten, even by someone who can write the
// database and recompute hashes. Several processes may run it: issuing takes
// the workspace's checkpoint lock, and a checkpoint of the same head is answered
// from the first (audit-chain.issue.ts). A workspace whose log does not extend
// its last checkpoint gets none: the alarm has said so once, not every pass.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import type { CoreDeps, Worker } from '../capability.js';
import { coalescing } from '../../platform/worker.js';
import { AppError } from '../../platform/errors.js';
import type { Issuer } from './audit-chain.issue.js';

/** Workspaces examined per pass (the next pass takes the rest). */
const BATCH = 500;

export interface CheckpointWorker extends Worker {
  /** one pass; returns how many checkpoints it issued */
  tick(): Promise<number>;
}

export function checkpointWorker(deps: CoreDeps, issuer: Issuer): CheckpointWorker {
  const { db, store, clock, ids, log, scope } = deps;
  const everyMs = deps.config.auditCheckpointIntervalSeconds * 1000;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function pass(): Promise<number> {
    // Across workspaces on purpose (the owner role): whose read models, which follow the log, passed their last checkpoint.
    const moved = (
      await db.raw(
        `SELECT p.tenant_id FROM projection_checkpoints p
          WHERE p.last_seq > COALESCE((SELECT max(c.seq) FROM audit_checkpoints c WHERE c.tenant_id = p.tenant_id), 0)
          ORDER BY p.tenant_id LIMIT ?`,
        [BATCH],
      )
    ).rows as { tenant_id: string }[];
    if (moved.length === 0) return 0;
    let issued = 0;
    for (const { tenant_id: tenantId } of moved) {
      if (stopped) break;
      try {
        await scope.run(tenantId, async () => issuer.issue({ tenantId, id: ids.uuid(), seq: await store.head(tenantId), now: clock.now() }));
        issued++;
      } catch (e) {
        if (!(e instanceof AppError && e.code === 'audit_chain_broken')) log.warn({ err: e, tenant_id: tenantId }, 'scheduled audit checkpoint failed');
      }
    }
    return issued;
  }

  const runner = coalescing(pass, () => stopped);
  return {
    name: 'audit-checkpoints',
    tick: runner.tick,
    async start() {
      // A witness folder that is not there is a configuration mistake to hear of now, not at the first checkpoint.
      const dir = deps.config.auditWitnessDir;
      if (dir) {
        await access(dir, constants.W_OK).catch((e: Error) => {
          throw new Error(`AUDIT_WITNESS_DIR ${dir} is not a folder this process can write: ${e.message}`);
        });
      }
      if (everyMs === 0) return;
      timer = setInterval(() => void runner.tick().catch((e) => log.warn({ err: e }, 'audit checkpoint pass failed')), everyMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await runner.idle();
    },
  };
}
