import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Routing (issue 34, item 6). A member's availability (online or away, set by
// themselves; away until they first say otherwise) and capacity (the most open
// conversations assigned to them that routing gives them; null: no limit), a
// team's assignment rule (none, round_robin or balanced), and per team the
// member its rule last assigned to: round robin's cursor, folded by the
// conversations projector from the assignment parts routing appends, so a
// rebuild lands on the same cursor. Open conversations per assignee are
// counted through conversations_state (tenant_id, state, assignee_id).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE members ADD COLUMN availability text NOT NULL DEFAULT 'away';
    ALTER TABLE members ADD COLUMN capacity integer;
    ALTER TABLE teams ADD COLUMN assignment text NOT NULL DEFAULT 'none';
    CREATE TABLE conversation_routing (
      tenant_id uuid NOT NULL,
      team_id text NOT NULL,
      last_assignee_id uuid NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, team_id)
    );
  `);
  await tenantWall(knex, 'conversation_routing');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE IF EXISTS conversation_routing;
    ALTER TABLE teams DROP COLUMN IF EXISTS assignment;
    ALTER TABLE members DROP COLUMN IF EXISTS capacity;
    ALTER TABLE members DROP COLUMN IF EXISTS availability;
  `);
}
