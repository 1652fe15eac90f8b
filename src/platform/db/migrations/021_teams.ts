import type { Knex } from 'knex';
import { tenantWall } from './014_row_level_security.js';

// Teams (issue 14): a read model of team.* events. A team's roster is the
// whole member_ids array (team.roster_changed carries the resulting set).
// Names are unique ignoring case; the decider refuses a duplicate under the
// tenant's append lock. There is no unique index on lower(name): a constraint
// cannot be on an expression, so it could not be deferred to commit, and an
// immediate one could refuse a rebuild that folds a rename and a reuse of the
// old name into one statement (see 017).
//
// Conversations get an index by team: deleting a team lists its conversations.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE teams (
      tenant_id uuid NOT NULL,
      id uuid NOT NULL,
      name text NOT NULL,
      member_ids jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      PRIMARY KEY (tenant_id, id)
    );
    CREATE INDEX teams_by_name ON teams (tenant_id, lower(name));
    CREATE INDEX conversations_by_team ON conversations (tenant_id, team_id) WHERE team_id IS NOT NULL;
  `);
  await tenantWall(knex, 'teams');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS teams; DROP INDEX IF EXISTS conversations_by_team;');
}
