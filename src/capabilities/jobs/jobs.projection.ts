import type { Projector } from '../../projections/projector.js';
import { tableSpec } from '../../projections/table-batch.js';
import type { JobEvent } from './jobs.events.js';

export const JOBS = tableSpec({
  table: 'jobs',
  key: ['tenant_id', 'id'],
  nullable: ['member_id', 'finished_at'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    kind: 'text',
    action: 'jsonb',
    total: 'integer',
    state: 'text',
    created_by_type: 'text',
    created_by_id: 'text',
    member_id: 'uuid',
    created_at: 'timestamptz',
    finished_at: 'timestamptz',
  },
} as const);

export const jobsProjector: Projector<JobEvent> = {
  name: 'jobs',
  handles: ['job.created', 'job.canceled', 'job.completed'],
  tables: ['jobs'],
  project(events, writes) {
    const jobs = writes.table(JOBS);
    for (const e of events) {
      switch (e.type) {
        case 'job.created': {
          const p = e.payload;
          jobs.insert({
            tenant_id: e.tenant_id,
            id: p.job_id,
            kind: p.kind,
            action: p.action,
            total: p.total,
            state: 'queued',
            created_by_type: p.created_by.type,
            created_by_id: p.created_by.id,
            // The member the job acts for (a key's member): its items' actor names them, as the request's would.
            member_id: e.metadata.actor?.member_id ?? (p.created_by.type === 'member' ? p.created_by.id : null),
            created_at: e.created_at,
            finished_at: null,
          });
          break;
        }
        case 'job.canceled':
          jobs.patch({ tenant_id: e.tenant_id, id: e.payload.job_id }, { state: 'canceled', finished_at: e.created_at });
          break;
        case 'job.completed':
          jobs.patch({ tenant_id: e.tenant_id, id: e.payload.job_id }, { state: 'completed', finished_at: e.created_at });
          break;
        default: {
          const never: never = e;
          throw new Error(`jobs projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
