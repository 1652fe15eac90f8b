// Makes a group commit certain rather than likely (the group-commit tests'
// method): the workspace's append lock is held from another connection, the
// first command takes a transaction and waits for it, the others queue behind
// that one in a known order, then the lock is let go and they run as one group.
import pg from 'pg';
import { eventually } from './events.js';
import type { TestService } from './service.js';

/** Starts `sends` in order, all but the first queued behind it as one group of `tenantId`; answers their results in order. */
export async function queuedBehindLock<T>(t: TestService, tenantId: string, sends: readonly (() => Promise<T>)[]): Promise<T[]> {
  const locker = new pg.Client({ connectionString: t.testDb.url });
  await locker.connect();
  await locker.query('SELECT pg_advisory_lock(hashtextextended($1::text, 0))', [tenantId]);
  try {
    const started = [sends[0]!()];
    // The first is in its transaction, waiting for the lock; the rest queue behind it one at a time.
    await eventually(
      async () =>
        (
          await t.testDb.db.raw(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'",
          )
        ).rows[0].n as number,
      (n) => n === 1,
      20_000,
    );
    for (let i = 1; i < sends.length; i++) {
      started.push(sends[i]!());
      await eventually(
        () => t.service.deps.shell.pending(tenantId),
        (n) => n === i,
        20_000,
      );
    }
    await locker.query('SELECT pg_advisory_unlock_all()');
    return await Promise.all(started);
  } finally {
    await locker.end();
  }
}
