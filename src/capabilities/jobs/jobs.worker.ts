// Runs bulk jobs: claims pending items (a batch, under a lease) and applies
// each item's action as its own command, acting as the job (`{type: 'job', id,
// member_id}` on its events and in the audit log), within the workspace's rate
// budget. State lives in Postgres, so a restart loses nothing: an item whose
// process died mid-claim is taken over once the lease runs out, and several
// processes share the work. An item is done exactly when its change committed
// (jobs.commands.ts, itemCommand); a refusal is its outcome (`failed`, with the
// code the same request would get), a change that changes nothing is
// `skipped`. Woken by NOTIFY when a job is made, with a poll tick as the net.
import type { CoreDeps, Worker } from '../capability.js';
import type { CommandContext } from '../../commands/command.js';
import { RateLimited } from '../../api/rate-limit/rate-limits.js';
import { AppError } from '../../platform/errors.js';
import { deterministicUuid } from '../../platform/ids.js';
import { notifiedWorker } from '../../platform/worker.js';
import { ALREADY_SO, type Author } from '../conversations/index.js';
import type { BulkAction } from './jobs.actions.js';
import { completeJob, itemCommand, ItemNotPending } from './jobs.commands.js';
import { findJob, type JobRow } from './jobs.read.js';
import { claimItems, finishedJobs, JOBS_CHANNEL, releaseItem, settleItem, type ClaimedItem } from './jobs.repo.js';

/** Attempts before an item whose command keeps failing (a database error, not a refusal) is marked failed. */
export const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 2_000;
/** Claims one pass takes before it yields (the poll tick, or the next wake-up, comes back for more). */
const CLAIMS_PER_PASS = 50;

export interface JobsWorker extends Worker {
  /** one pass: items with an outcome, then jobs completed; returns how many items got their outcome */
  tick(): Promise<number>;
}

export function jobsWorker(deps: CoreDeps): JobsWorker {
  const { db, shell, clock, log, config } = deps;
  const run = <T>(tenantId: string, f: () => Promise<T>) => deps.scope.run(tenantId, f);

  /** The job an item belongs to, read once per pass. */
  async function jobOf(cache: Map<string, JobRow | null>, item: ClaimedItem): Promise<JobRow | null> {
    const k = `${item.tenant_id}|${item.job_id}`;
    if (!cache.has(k)) cache.set(k, (await run(item.tenant_id, () => findJob(db, item.tenant_id, item.job_id))) ?? null);
    return cache.get(k)!;
  }

  /** Applies one item; false when the workspace's rate budget is spent (the item waits, and its job with it). */
  async function apply(item: ClaimedItem, job: JobRow): Promise<'done' | 'later'> {
    const now = clock.now();
    if (deps.rateLimits) {
      try {
        await deps.rateLimits.forJob(item.tenant_id);
      } catch (e) {
        if (!(e instanceof RateLimited)) throw e;
        const wait = Number(e.headers['Retry-After'] ?? 1) * 1000;
        await releaseItem(db, item, new Date(now.getTime() + wait), true).catch(() => undefined);
        return 'later';
      }
    }
    const author: Author = { type: job.created_by_type, id: job.created_by_id };
    const ctx: CommandContext = {
      tenantId: item.tenant_id,
      now,
      actor: { type: 'job', id: job.id, ...(job.member_id ? { member_id: job.member_id } : {}) },
      // The item's own key: its events' ids are the same on every attempt, so a retry finds what one committed.
      idempotencyKey: `item:${item.ord}`,
      ...(item.attempts > 1 ? { resumed: true } : {}),
    };
    const partId = deterministicUuid(item.tenant_id, job.id, 'part', String(item.ord));
    try {
      const { events } = await run(item.tenant_id, () => shell.execute(ctx, itemCommand(item, job.action as BulkAction, author, partId, now)));
      // Nothing to change (already closed, already tagged): the item is skipped; a change was marked with its commit.
      if (events.length === 0) await settleItem(db, item, 'skipped', now);
      return 'done';
    } catch (e) {
      if (e instanceof ItemNotPending) return 'done';
      if (e instanceof AppError && e.status < 500) {
        if (ALREADY_SO.has(e.code)) await settleItem(db, item, 'skipped', now);
        else await settleItem(db, item, 'failed', now, { code: e.code, message: e.message });
        return 'done';
      }
      if (item.attempts < MAX_ATTEMPTS) {
        log.warn({ err: e, job_id: job.id, position: item.ord, attempt: item.attempts }, 'job item attempt failed; will retry');
        await releaseItem(db, item, new Date(now.getTime() + RETRY_BASE_MS * 2 ** (item.attempts - 1))).catch(() => undefined);
        return 'later';
      }
      log.warn({ err: e, job_id: job.id, position: item.ord }, 'job item failed');
      await settleItem(db, item, 'failed', now, { code: 'internal_error', message: `Gave up after ${item.attempts} attempts.` });
      return 'done';
    }
  }

  async function pass(stopping: () => boolean): Promise<number> {
    let done = 0;
    const jobs = new Map<string, JobRow | null>();
    for (let i = 0; i < CLAIMS_PER_PASS && !stopping(); i++) {
      const claimed = await claimItems(db, clock.now(), config.jobsLeaseMs, config.jobsBatch);
      if (claimed.length === 0) break;
      /** workspaces whose budget ran out in this claim: their other items wait for the next pass */
      const spent = new Set<string>();
      for (const [k, item] of claimed.entries()) {
        if (stopping()) {
          // A graceful stop hands back what it claimed at once instead of letting the lease run out.
          await Promise.all(claimed.slice(k).map((x) => releaseItem(db, x, clock.now(), true))).catch(() => undefined);
          break;
        }
        const job = await jobOf(jobs, item);
        if (!job || job.state !== 'queued' || spent.has(item.tenant_id)) {
          await releaseItem(db, item, clock.now(), true).catch(() => undefined);
          continue;
        }
        if ((await apply(item, job)) === 'done') done++;
        else spent.add(item.tenant_id);
      }
      if (spent.size) break;
    }
    for (const j of await finishedJobs(db, 20)) {
      await run(j.tenant_id, () => shell.execute({ tenantId: j.tenant_id, now: clock.now(), actor: { type: 'system', id: 'jobs' } }, completeJob(j.id))).catch(
        (e) => log.warn({ err: e, job_id: j.id }, 'job completion failed'),
      );
    }
    return done;
  }

  return notifiedWorker(deps, { name: 'jobs', channel: JOBS_CHANNEL, pollMs: config.jobsPollMs, pass });
}
