import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Jobs (src/capabilities/jobs/): bulk conversation actions run in the
// background. `jobs` is a read model of job.* events: what a job does, who
// asked, and whether it was canceled or completed. `job_items` is primary data
// beside the log: the conversations a job was made for (resolved when it was
// made, up to 10,000), each with its outcome. An item's outcome is written in
// the transaction of the command it ran (succeeded), or by the worker when the
// command changed nothing (skipped) or was refused (failed); its lease lets
// processes share the work and take over a dead one's.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE jobs (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      kind text NOT NULL,
      action jsonb NOT NULL,
      total integer NOT NULL,
      state text NOT NULL,
      created_by_type text NOT NULL,
      created_by_id text NOT NULL,
      member_id uuid,
      created_at timestamptz NOT NULL,
      finished_at timestamptz,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX jobs_queued ON jobs (created_at) WHERE state = 'queued';
    CREATE TABLE job_items (
      tenant_id uuid NOT NULL,
      job_id uuid NOT NULL,
      ord integer NOT NULL,
      conversation_id uuid NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      error_code text,
      error_message text,
      attempts integer NOT NULL DEFAULT 0,
      leased_until timestamptz,
      finished_at timestamptz,
      PRIMARY KEY (tenant_id, job_id, ord)
    );
    CREATE INDEX job_items_pending ON job_items (tenant_id, job_id, ord) WHERE status = 'pending';
  `);
  await tenantWall(knex, 'jobs');
  await tenantWall(knex, 'job_items');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS job_items; DROP TABLE IF EXISTS jobs');
}
