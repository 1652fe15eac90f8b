// Pure rules of jobs. A job is made for 1 to MAX_JOB_ITEMS conversations; it
// can be canceled until it has finished; it completes once no item is pending.
import { Conflict, NotFound } from '../../platform/errors.js';
import type { JobCreator, JobEvent } from './jobs.events.js';
import type { BulkAction } from './jobs.actions.js';

export const MAX_JOB_ITEMS = 10_000;

/** A job as a decision needs it. */
export interface JobView {
  id: string;
  state: 'queued' | 'canceled' | 'completed';
}

export function decideCreateJob(cmd: {
  jobId: string;
  action: BulkAction;
  conversationIds: readonly string[];
  selectedBy: 'ids' | 'query';
  createdBy: JobCreator;
}): JobEvent[] {
  return [
    {
      type: 'job.created',
      aggregate_type: 'job',
      aggregate_id: cmd.jobId,
      payload: {
        job_id: cmd.jobId,
        kind: 'conversations.bulk',
        action: cmd.action as Record<string, unknown>,
        total: cmd.conversationIds.length,
        selected_by: cmd.selectedBy,
        created_by: cmd.createdBy,
      },
    },
  ];
}

export function decideCancelJob(job: JobView | null, by: JobCreator): JobEvent[] {
  if (!job) throw new NotFound('job');
  if (job.state !== 'queued') throw new Conflict('job_finished', `The job is ${job.state}: there is nothing left to cancel.`);
  return [{ type: 'job.canceled', aggregate_type: 'job', aggregate_id: job.id, payload: { job_id: job.id, canceled_by: by } }];
}

/** Completes a job whose items all have their outcome (none pending); nothing otherwise, or when it has finished. */
export function decideCompleteJob(job: JobView | null, items: { pending: number; succeeded: number; failed: number; skipped: number }): JobEvent[] {
  if (!job || job.state !== 'queued' || items.pending > 0) return [];
  return [
    {
      type: 'job.completed',
      aggregate_type: 'job',
      aggregate_id: job.id,
      payload: { job_id: job.id, succeeded: items.succeeded, failed: items.failed, skipped: items.skipped },
    },
  ];
}
