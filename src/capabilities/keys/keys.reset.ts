// A password reset revokes every key of the account (finding 10 of the security review of 2026-11-28). The reset's
// own transaction (consume_password_reset, migration 048) already made the keys useless: it deleted their secret
// hashes, told every process to drop the workspaces' cached principals, and left one row per key in
// key_revocations_due. What it cannot do is write the workspaces' logs, which only their commands write, each in a
// transaction of its own. Here each key's `api_key.revoked` is appended in its workspace, with the reset as the
// actor, so that the log, the feed, webhooks and the audit log record it; then its row goes. Right after the reset
// for the reset's own keys, and by a worker for whatever a crash in between left: revoking twice decides nothing.
import type { Knex } from 'knex';
import type { CoreDeps, Worker } from '../capability.js';
import { coalescing } from '../../platform/worker.js';
import { revokeKeyOnReset } from './keys.commands.js';

/** A row is left to the worker once the reset that wrote it had this long to write its events itself. */
const GRACE_MS = 60_000;
const EVERY_MS = 30_000;
const BATCH = 100;

interface Due {
  tenant_id: string;
  key_id: string;
  member_id: string;
}

type Deps = Pick<CoreDeps, 'db' | 'ownerDb' | 'shell' | 'clock' | 'log'>;

/** The keys' revocations owed: across workspaces on purpose (a reset is the account's), so on the owner pool. */
function due(db: Knex) {
  return db('key_revocations_due as d')
    .join('api_keys as k', function () {
      this.on('k.tenant_id', 'd.tenant_id').andOn('k.id', 'd.key_id');
    })
    .select<Due[]>('d.tenant_id', 'd.key_id', 'k.member_id');
}

/** Appends each owed revocation in its workspace and drops its row; returns how many were settled. */
async function settle(deps: Deps, rows: readonly Due[], requestId?: string): Promise<number> {
  const db = deps.ownerDb ?? deps.db;
  let settled = 0;
  for (const r of rows) {
    try {
      // The reset acts, not a member: it is not a member's session or key, and whoever reset proved only the mailbox.
      await deps.shell.execute(
        { tenantId: r.tenant_id, now: deps.clock.now(), actor: { type: 'system', id: 'password_reset', member_id: r.member_id }, requestId },
        revokeKeyOnReset(r.key_id),
      );
      await db('key_revocations_due').where({ tenant_id: r.tenant_id, key_id: r.key_id }).del();
      settled++;
    } catch (e) {
      // The key is dead already (its secret went with the reset); the worker writes its event later.
      deps.log.warn({ err: e, tenant_id: r.tenant_id, key_id: r.key_id }, 'recording a key revoked by a password reset failed; the worker retries');
    }
  }
  return settled;
}

/**
 * Records in their workspaces' logs the keys the reset of `userId`'s password revoked, before the reset is
 * answered: the caller's next request (and GET /api/keys) sees them revoked. `requestId`: the reset's request.
 * Never throws: the reset has committed, and what fails here is the worker's to finish.
 */
export async function revokeKeysOfReset(deps: Deps, userId: string, requestId?: string): Promise<void> {
  try {
    await settle(deps, await due(deps.ownerDb ?? deps.db).where('d.user_id', userId), requestId);
  } catch (e) {
    deps.log.warn({ err: e, user_id: userId }, 'reading the keys a password reset revoked failed; the worker records them');
  }
}

export interface KeyRevocationsWorker extends Worker {
  /** one pass; returns how many revocations it recorded */
  tick(): Promise<number>;
}

/** Records the revocations a reset owed and did not record itself (its process died between the two). */
export function keyRevocationsWorker(deps: CoreDeps): KeyRevocationsWorker {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const pass = async () =>
    settle(
      deps,
      await due(deps.db)
        .where('d.reset_at', '<=', new Date(deps.clock.now().getTime() - GRACE_MS))
        .orderBy('d.reset_at')
        .limit(BATCH),
    );
  const { tick, idle } = coalescing(pass, () => stopped);
  return {
    name: 'key_revocations',
    tick,
    async start() {
      stopped = false;
      timer = setInterval(() => void tick().catch((e) => deps.log.warn({ err: e }, 'key revocations pass failed')), EVERY_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await idle();
    },
  };
}
