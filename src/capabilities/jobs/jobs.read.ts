import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { anyObject, constant, dateTime, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { RowOf } from '../../projections/table-batch.js';
import type { JobView } from './jobs.decider.js';
import { JOB_CREATOR_TYPES, JOB_KINDS } from './jobs.events.js';
import type { JOBS } from './jobs.projection.js';
import { itemCounts, type ItemCounts } from './jobs.repo.js';

export type JobRow = RowOf<typeof JOBS> & { state: JobView['state']; created_by_type: (typeof JOB_CREATOR_TYPES)[number]; kind: (typeof JOB_KINDS)[number] };

export async function findJob(db: Db, tenantId: string, id: string): Promise<JobRow | undefined> {
  return isUuid(id) ? db('jobs').where({ tenant_id: tenantId, id }).first() : undefined;
}

export const jobView = (r: JobRow | undefined): JobView | null => (r ? { id: r.id, state: r.state } : null);

export const jobSchema = object(
  {
    type: constant('job'),
    id: uuid,
    kind: oneOfStrings(JOB_KINDS),
    status: oneOfStrings(['queued', 'running', 'completed', 'canceled'], {
      description: '`queued` until its first item has an outcome, then `running`, until `completed` (every item has one) or `canceled`.',
    }),
    action: anyObject({ description: 'The action, as asked.' }),
    total: integer({ minimum: 1 }),
    succeeded: integer({ minimum: 0, description: 'Items whose conversation the action changed.' }),
    failed: integer({ minimum: 0, description: 'Items the action was refused for (their error says why).' }),
    skipped: integer({ minimum: 0, description: 'Items the action had nothing to change on (closing a closed conversation).' }),
    canceled: integer({ minimum: 0, description: 'Items not done when the job was canceled.' }),
    pending: integer({ minimum: 0 }),
    created_by: object({ type: oneOfStrings(JOB_CREATOR_TYPES), id: str() }, { title: 'JobCreator' }),
    created_at: dateTime,
    finished_at: nullable(dateTime),
  },
  { title: 'Job' },
);
export type Job = Static<typeof jobSchema>;

export async function renderJob(db: Db, r: JobRow): Promise<Job> {
  const c: ItemCounts = await itemCounts(db, r.tenant_id, r.id);
  const started = c.succeeded + c.failed + c.skipped > 0;
  return {
    type: 'job',
    id: r.id,
    kind: r.kind,
    status: r.state === 'queued' ? (started ? 'running' : 'queued') : r.state,
    action: r.action as Record<string, unknown>,
    total: r.total,
    succeeded: c.succeeded,
    failed: c.failed,
    skipped: c.skipped,
    canceled: c.canceled,
    pending: c.pending,
    created_by: { type: r.created_by_type, id: r.created_by_id },
    created_at: r.created_at.toISOString(),
    finished_at: r.finished_at ? r.finished_at.toISOString() : null,
  };
}

export interface JobItemRow {
  ord: number;
  conversation_id: string;
  status: 'pending' | 'succeeded' | 'failed' | 'skipped' | 'canceled';
  error_code: string | null;
  error_message: string | null;
  finished_at: Date | null;
}

export const itemsOf = (db: Db, tenantId: string, jobId: string) =>
  db('job_items').where({ tenant_id: tenantId, job_id: jobId }).select('ord', 'conversation_id', 'status', 'error_code', 'error_message', 'finished_at');

export const itemList: ListSpec = {
  itemType: 'job_item',
  sorts: { position: { column: 'ord', kind: 'number' } },
  defaultSort: 'position',
  defaultOrder: 'asc',
  idColumn: 'conversation_id',
  idIsUuid: true,
};

export const jobItemSchema = object(
  {
    type: constant('job_item'),
    position: integer({ minimum: 0, description: 'Its place in the job, from 0.' }),
    conversation_id: uuid,
    status: oneOfStrings(['pending', 'succeeded', 'failed', 'skipped', 'canceled']),
    error: nullable(object({ code: str(), message: str() }, { title: 'JobItemError' }), {
      description: 'Why it failed: the code and message the same request would have been answered with.',
    }),
    finished_at: nullable(dateTime),
  },
  { title: 'JobItem' },
);
export type JobItem = Static<typeof jobItemSchema>;

export const renderItem = (r: JobItemRow): JobItem => ({
  type: 'job_item',
  position: r.ord,
  conversation_id: r.conversation_id,
  status: r.status,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  finished_at: r.finished_at ? r.finished_at.toISOString() : null,
});
