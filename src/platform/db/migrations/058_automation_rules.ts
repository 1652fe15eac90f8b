import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Automation rules (src/capabilities/automation/). `automation_rules` is a read
// model of automation_rule.* events. Beside the log: each rule's signing secret
// (sealed, for its `call_url` actions), the rules worker's cursor per
// workspace (the last seq it decided on), the actions it decided (one row per
// rule, event and action: the key that makes each run exactly once, its
// outcome written in the transaction of the command it ran), and the last loop
// stopped per rule. A rule's `call_url` is a delivery in the webhook outbox,
// target kind `rule`.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE automation_rules (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      enabled boolean NOT NULL,
      position integer NOT NULL,
      triggers text[] NOT NULL,
      condition jsonb,
      actions jsonb NOT NULL,
      enabled_seq bigint NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX automation_rules_enabled ON automation_rules (tenant_id) WHERE enabled;
    CREATE TABLE automation_rule_secrets (
      tenant_id uuid NOT NULL,
      rule_id uuid NOT NULL,
      sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, rule_id)
    );
    CREATE TABLE automation_cursors (
      tenant_id uuid PRIMARY KEY,
      seq bigint NOT NULL
    );
    CREATE TABLE automation_actions (
      id uuid NOT NULL UNIQUE,
      tenant_id uuid NOT NULL,
      rule_id uuid NOT NULL,
      seq bigint NOT NULL,
      idx integer NOT NULL,
      position integer NOT NULL,
      conversation_id uuid NOT NULL,
      event_type text NOT NULL,
      event_at timestamptz NOT NULL,
      chain uuid[] NOT NULL,
      action jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempts integer NOT NULL DEFAULT 0,
      leased_until timestamptz,
      error_code text,
      error_message text,
      decided_at timestamptz NOT NULL,
      finished_at timestamptz,
      PRIMARY KEY (tenant_id, rule_id, seq, idx)
    );
    CREATE INDEX automation_actions_pending ON automation_actions (event_at, seq, position, idx) WHERE status = 'pending';
    CREATE INDEX automation_actions_pending_by_rule ON automation_actions (tenant_id, rule_id) WHERE status = 'pending';
    CREATE INDEX automation_actions_settled ON automation_actions (finished_at) WHERE status <> 'pending';
    CREATE INDEX automation_actions_by_rule ON automation_actions (tenant_id, rule_id, seq, id);
    CREATE TABLE automation_rule_loops (
      tenant_id uuid NOT NULL,
      rule_id uuid NOT NULL,
      seq bigint NOT NULL,
      chain uuid[] NOT NULL,
      reason text NOT NULL,
      at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, rule_id)
    );
    ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_target_kind_check;
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_target_kind_check CHECK (target_kind IN ('endpoint', 'channel', 'rule'));
  `);
  for (const t of ['automation_rules', 'automation_rule_secrets', 'automation_cursors', 'automation_actions', 'automation_rule_loops'])
    await tenantWall(knex, t);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DELETE FROM webhook_deliveries WHERE target_kind = 'rule';
    ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_target_kind_check;
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_target_kind_check CHECK (target_kind IN ('endpoint', 'channel'));
    DROP TABLE IF EXISTS automation_rule_loops, automation_actions, automation_cursors, automation_rule_secrets, automation_rules;
  `);
}
