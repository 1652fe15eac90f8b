import type { CommandSpec } from '../../commands/command.js';
import {
  decideCreateTeam,
  decideDeleteTeam,
  decideRenameTeam,
  decideRosters,
  decideUpdateTeam,
  type AssignmentRule,
  type RosterEntry,
  type RosterState,
  type TeamView,
} from './teams.decider.js';
import type { TeamEvent } from './teams.events.js';
import { activeMemberIdsAmong } from '../members/index.js';
import { findTeam, findTeamByName, teamsByIds, teamView, type TeamReferences } from './teams.read.js';

export const createTeam = (input: { id: string; name: string }): CommandSpec<{ sameName: TeamView | null }, TeamEvent> => ({
  name: 'CreateTeam',
  load: async (db, ctx) => ({ sameName: teamView(await findTeamByName(db, ctx.tenantId, input.name)) }),
  decide: (s) => decideCreateTeam(input, s),
});

export const renameTeam = (input: { id: string; name: string }): CommandSpec<{ team: TeamView | null; sameName: TeamView | null }, TeamEvent> => ({
  name: 'RenameTeam',
  load: async (db, ctx) => ({
    team: teamView(await findTeam(db, ctx.tenantId, input.id)),
    sameName: teamView(await findTeamByName(db, ctx.tenantId, input.name)),
  }),
  decide: (s) => decideRenameTeam(input, s),
});

/** Renames a team, changes its assignment rule, or both (PUT /api/teams/{id}). */
export const updateTeam = (input: {
  id: string;
  name?: string;
  assignment?: AssignmentRule;
}): CommandSpec<{ team: TeamView | null; sameName: TeamView | null }, TeamEvent> => ({
  name: input.assignment === undefined ? 'RenameTeam' : 'UpdateTeam',
  load: async (db, ctx) => ({
    team: teamView(await findTeam(db, ctx.tenantId, input.id)),
    sameName: input.name === undefined ? null : teamView(await findTeamByName(db, ctx.tenantId, input.name)),
  }),
  decide: (s) => decideUpdateTeam(input, s),
});

/** Deletes a team; the one event names the conversations and channels it unassigns (their projections fold it). */
export const deleteTeam = (
  input: { id: string },
  refs: TeamReferences,
): CommandSpec<{ team: TeamView | null; conversationIds: string[]; channelIds: string[] }, TeamEvent> => ({
  name: 'DeleteTeam',
  load: async (db, ctx) => {
    const team = teamView(await findTeam(db, ctx.tenantId, input.id));
    if (!team) return { team, conversationIds: [], channelIds: [] };
    return { team, conversationIds: await refs.conversationIds(db, ctx.tenantId, team.id), channelIds: await refs.channelIds(db, ctx.tenantId, team.id) };
  },
  decide: (s) => decideDeleteTeam(s.team, s),
});

/**
 * Replaces rosters: one team (PUT /teams/{id}/members) or several at once
 * (POST /teams/rosters). One command, so one transaction and one contiguous
 * run of seqs; any bad id refuses all of it.
 */
export const setRosters = (entries: RosterEntry[], opts: { single: boolean }): CommandSpec<RosterState, TeamEvent> => ({
  name: opts.single ? 'SetTeamMembers' : 'MoveTeamMembers',
  load: async (db, ctx) => {
    const teams = await teamsByIds(
      db,
      ctx.tenantId,
      entries.map((e) => e.teamId),
    );
    return {
      teams: new Map(teams.map((t) => [t.id, teamView(t)!])),
      activeMembers: await activeMemberIdsAmong(
        db,
        ctx.tenantId,
        entries.flatMap((e) => e.memberIds),
      ),
    };
  },
  decide: (s) => decideRosters(entries, s, opts),
});
