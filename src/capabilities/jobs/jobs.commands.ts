import type { CommandSpec } from '../../commands/command.js';
import type { NewEvent } from '../../eventstore/envelope.js';
import type { Author } from '../conversations/index.js';
import { actionSpec, type BulkAction } from './jobs.actions.js';
import { decideCancelJob, decideCompleteJob, decideCreateJob, type JobView } from './jobs.decider.js';
import type { JobCreator, JobEvent } from './jobs.events.js';
import { findJob, jobView } from './jobs.read.js';
import { announce, cancelItems, insertItems, itemCounts, settleItem, type ClaimedItem } from './jobs.repo.js';

/** A job: its event, and beside it (same transaction) its items, one per conversation, in order. */
export const createJob = (cmd: {
  jobId: string;
  action: BulkAction;
  conversationIds: readonly string[];
  selectedBy: 'ids' | 'query';
  createdBy: JobCreator;
}): CommandSpec<null, JobEvent> => ({
  name: 'CreateJob',
  load: async () => null,
  decide: () => decideCreateJob(cmd),
  async beside(db, events, ctx) {
    if (events.length === 0) return;
    await insertItems(db, ctx.tenantId, cmd.jobId, cmd.conversationIds);
    // Wakes the workers of every process (delivered at commit).
    await announce(db);
  },
});

export const cancelJob = (jobId: string, by: JobCreator): CommandSpec<JobView | null, JobEvent> => ({
  name: 'CancelJob',
  load: async (db, ctx) => jobView(await findJob(db, ctx.tenantId, jobId)),
  decide: (job) => decideCancelJob(job, by),
  async beside(db, events, ctx) {
    if (events.length) await cancelItems(db, ctx.tenantId, jobId, ctx.now);
  },
});

/** Completes a job once none of its items is pending (counted under the workspace's lock). */
export const completeJob = (jobId: string): CommandSpec<{ job: JobView | null; counts: Awaited<ReturnType<typeof itemCounts>> }, JobEvent> => ({
  name: 'CompleteJob',
  load: async (db, ctx) => ({ job: jobView(await findJob(db, ctx.tenantId, jobId)), counts: await itemCounts(db, ctx.tenantId, jobId) }),
  decide: (s) => decideCompleteJob(s.job, s.counts),
});

/** An item that has its outcome already (its job was canceled after it was claimed): its change is rolled back. */
export class ItemNotPending extends Error {}

/**
 * One item: the action's command on its conversation, its outcome (`succeeded`) written in the same transaction
 * as the events. So an item is done exactly when its change committed: a process killed before the commit leaves
 * it pending (and changed nothing), one killed after leaves it done. A retry of an item whose change committed
 * without its mark (a log outside Postgres) is recognised by its event ids, derived from the job and the item
 * (its Idempotency-Key), and marked then (`replayed`).
 */
export function itemCommand(item: ClaimedItem, action: BulkAction, author: Author, partId: string, now: Date): CommandSpec<unknown, NewEvent> {
  const spec = actionSpec(action, { conversationId: item.conversation_id, partId, author, now });
  return {
    ...spec,
    async beside(db, events, ctx) {
      // Canceled since it was claimed: its change must not stand (the rollback undoes it with this transaction).
      if (events.length && !(await settleItem(db, item, 'succeeded', ctx.now))) throw new ItemNotPending();
    },
    async replayed(db, _events, ctx) {
      await settleItem(db, item, 'succeeded', ctx.now);
    },
  };
}
