import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Business hours, SLA policies and response statistics (issue 34, items 3 to 5).
// - business_hours: one row per workspace (its calendar: IANA zone, weekly intervals, holidays).
// - sla_policies: the workspace's policies, in the order they are tried (position).
// - conversation_slas: a conversation's applied policy and its pending due dates; a
//   target's due date is cleared once it is met or breached, so the breach worker's
//   scan is the index on the earliest pending one.
// - conversation_statistics: response facts folded from the conversation's parts
//   (calendar instants; business time is computed from them when read).
// - sla_watch: the breach worker's own state beside the log (not a read model): the
//   last statistics seq it evaluated per conversation, so a pass looks only at what changed.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE business_hours (
      tenant_id uuid PRIMARY KEY,
      time_zone text NOT NULL,
      intervals jsonb NOT NULL,
      holidays text[] NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE TABLE sla_policies (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      position bigint NOT NULL,
      match jsonb NOT NULL,
      first_response_target_seconds integer,
      next_response_target_seconds integer,
      resolution_target_seconds integer,
      business_hours boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE TABLE conversation_slas (
      tenant_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      policy_id uuid,
      first_response_due_at timestamptz,
      next_response_due_at timestamptz,
      resolution_due_at timestamptz,
      next_response_since timestamptz,
      resolution_remaining_seconds integer,
      breaches text[] NOT NULL,
      met text[] NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, conversation_id)
    );
    CREATE INDEX conversation_slas_next_due ON conversation_slas (least(first_response_due_at, next_response_due_at, resolution_due_at));
    CREATE TABLE conversation_statistics (
      tenant_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      created_at timestamptz,
      state text NOT NULL,
      state_changed_at timestamptz,
      first_response_at timestamptz,
      last_response_at timestamptz,
      awaiting_since timestamptz,
      first_closed_at timestamptz,
      last_closed_at timestamptz,
      reopens integer NOT NULL,
      teammate_replies integer NOT NULL,
      customer_replies integer NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (tenant_id, conversation_id)
    );
    CREATE INDEX conversation_statistics_created ON conversation_statistics (tenant_id, created_at);
    CREATE TABLE sla_watch (
      tenant_id uuid NOT NULL,
      conversation_id uuid NOT NULL,
      seen_seq bigint NOT NULL,
      PRIMARY KEY (tenant_id, conversation_id)
    );
  `);
  for (const t of ['business_hours', 'sla_policies', 'conversation_slas', 'conversation_statistics', 'sla_watch']) await tenantWall(knex, t);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS sla_watch;
    DROP TABLE IF EXISTS conversation_statistics;
    DROP TABLE IF EXISTS conversation_slas;
    DROP TABLE IF EXISTS sla_policies;
    DROP TABLE IF EXISTS business_hours;
  `);
}
