// Retention of the entries beside the log: AUDIT_RETENTION_DAYS after they were written, entries (and the
// addresses keys were seen from) are deleted; events, which are the log, never are. A sweep at start and then
// every hour, in bounded batches so no delete holds many rows' locks at once. It works across workspaces (the
// owner role); several processes may sweep at once, which only deletes the same rows sooner.
import type { CoreDeps, Worker } from '../capability.js';

const EVERY_MS = 3600_000;
const BATCH = 5_000;

export interface RetentionWorker extends Worker {
  /** Deletes what is past the retention; returns how many rows went. */
  sweep(): Promise<number>;
}

export function auditRetention(deps: Pick<CoreDeps, 'db' | 'clock' | 'log' | 'config'>): RetentionWorker {
  const { db, clock, log, config } = deps;
  let timer: NodeJS.Timeout | null = null;

  const deleteOlder = async (table: 'audit_entries' | 'audit_key_addresses', column: string, cutoff: Date): Promise<number> => {
    let total = 0;
    for (;;) {
      const res = await db.raw(`DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${column} < ? LIMIT ${BATCH})`, [cutoff]);
      total += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < BATCH) return total;
    }
  };

  const sweep = async (): Promise<number> => {
    const cutoff = new Date(clock.now().getTime() - config.auditRetentionDays * 86_400_000);
    return (await deleteOlder('audit_entries', 'created_at', cutoff)) + (await deleteOlder('audit_key_addresses', 'first_seen_at', cutoff));
  };
  const tick = () =>
    sweep().then(
      (n) => n > 0 && log.info({ deleted: n, retention_days: config.auditRetentionDays }, 'audit log entries past their retention deleted'),
      (e) => log.warn({ err: e }, 'audit log retention sweep failed'),
    );

  return {
    name: 'audit-log-retention',
    sweep,
    async start() {
      void tick();
      timer = setInterval(() => void tick(), EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
    },
  };
}
