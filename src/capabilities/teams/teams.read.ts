import type { Db } from '../../commands/command.js';
import { isUuid } from '../../platform/ids.js';
import { arrayOf, constant, dateTime, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { activeMemberIdsAmong } from '../members/index.js';
import type { AssignmentRule, TeamView } from './teams.decider.js';
import { ASSIGNMENT_RULES } from './teams.events.js';
import type { TEAMS } from './teams.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `teams` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type TeamRow = RowOf<typeof TEAMS> & {
  member_ids: string[];
  assignment: AssignmentRule;
};

export const renderTeam = (t: TeamRow): Team => ({
  type: 'team',
  id: t.id,
  name: t.name,
  member_ids: t.member_ids,
  assignment: t.assignment,
  created_at: t.created_at.toISOString(),
  updated_at: t.updated_at.toISOString(),
});

/**
 * Teams as answers show only active members: a member removed from the
 * workspace stays in the stored roster (no event names their teams) but is
 * left out here, and the next roster change of the team drops them.
 */
export async function renderTeams(db: Db, tenantId: string, rows: TeamRow[]): Promise<Team[]> {
  const active = await activeMemberIdsAmong(
    db,
    tenantId,
    rows.flatMap((r) => r.member_ids),
  );
  return rows.map((r) => renderTeam({ ...r, member_ids: r.member_ids.filter((m) => active.has(m)) }));
}

export const teamsOf = (db: Db, tenantId: string) => db('teams').where({ tenant_id: tenantId });

export async function findTeam(db: Db, tenantId: string, id: string): Promise<TeamRow | undefined> {
  return isUuid(id) ? teamsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

/** Whether `id` names a team of the workspace (what conversations and channels check a team_id against). */
export async function teamExists(db: Db, tenantId: string, id: string | null | undefined): Promise<boolean> {
  return !!id && isUuid(id) && !!(await teamsOf(db, tenantId).andWhere({ id }).first('id'));
}

/** The team with this name, ignoring case. */
export async function findTeamByName(db: Db, tenantId: string, name: string): Promise<TeamRow | undefined> {
  return teamsOf(db, tenantId).andWhereRaw('lower(name) = lower(?)', [name]).first();
}

export async function teamsByIds(db: Db, tenantId: string, ids: readonly string[]): Promise<TeamRow[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  return wanted.length ? teamsOf(db, tenantId).whereIn('id', wanted) : [];
}

/**
 * What a team's deletion unassigns: the conversations assigned to it and the
 * channels defaulting to it. Those capabilities' read functions, handed in by
 * src/capabilities/index.ts: conversations and channels import teams (for
 * teamExists), so teams may not import them back (dependency-cruiser forbids
 * the cycle).
 */
export interface TeamReferences {
  conversationIds(db: Db, tenantId: string, teamId: string): Promise<string[]>;
  channelIds(db: Db, tenantId: string, teamId: string): Promise<string[]>;
}

export const teamView = (t: TeamRow | undefined): TeamView | null => (t ? { id: t.id, name: t.name, memberIds: t.member_ids, assignment: t.assignment } : null);

/** A team's assignment rule and roster (as stored: the caller keeps the active members), or undefined for no team of the workspace. */
export async function teamRouting(
  db: Db,
  tenantId: string,
  id: string | null | undefined,
): Promise<{ assignment: AssignmentRule; memberIds: string[] } | undefined> {
  if (!id || !isUuid(id)) return undefined;
  const row = (await teamsOf(db, tenantId).andWhere({ id }).first('assignment', 'member_ids')) as Pick<TeamRow, 'assignment' | 'member_ids'> | undefined;
  return row && { assignment: row.assignment, memberIds: row.member_ids };
}

export const teamSchema = object(
  {
    type: constant('team'),
    id: uuid,
    name: str(),
    member_ids: arrayOf(uuid, { description: 'The active members on the team.' }),
    assignment: oneOfStrings(ASSIGNMENT_RULES, {
      description:
        'How its new and reopened unassigned conversations are assigned: `none` (a teammate does it), `round_robin` (the next available member after the one it last assigned to, by member id) or `balanced` (the available member with the fewest open conversations assigned; ties in round-robin order). Available: active, on the roster, online, under their capacity. Set with PUT /api/teams/{id}.',
    }),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'Team' },
);
export type Team = Static<typeof teamSchema>;

export const teamListSchema = object(
  { type: constant('list'), data: arrayOf(teamSchema) },
  { title: 'TeamList', description: 'Every team of the workspace, by name; not paginated.' },
);
export type TeamList = Static<typeof teamListSchema>;

export const deletedTeamSchema = object({ type: constant('team'), id: uuid, deleted: constant(true) }, { title: 'DeletedTeam' });
export type DeletedTeam = Static<typeof deletedTeamSchema>;
