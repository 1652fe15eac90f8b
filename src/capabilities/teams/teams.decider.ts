// Pure team rules: names are unique in the workspace ignoring case; a roster
// names active members only and is replaced whole; re-sending the same set
// decides nothing. A move between teams is one command: every entry is checked
// before any event is decided, so one bad id refuses the whole move.
import { Conflict, NotFound, ValidationFailed, type ErrorEntry } from '../../platform/errors.js';
import type { ASSIGNMENT_RULES, TeamEvent } from './teams.events.js';

export type AssignmentRule = (typeof ASSIGNMENT_RULES)[number];

export interface TeamView {
  id: string;
  name: string;
  memberIds: string[];
  /** absent: none */
  assignment?: AssignmentRule;
}

export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function decideCreateTeam(cmd: { id: string; name: string }, s: { sameName: TeamView | null }): TeamEvent[] {
  if (s.sameName) throw new Conflict('team_exists', `A team named "${s.sameName.name}" exists: ${s.sameName.id}.`);
  return [{ type: 'team.created', aggregate_type: 'team', aggregate_id: cmd.id, payload: { id: cmd.id, name: cmd.name } }];
}

export function decideRenameTeam(cmd: { id: string; name: string }, s: { team: TeamView | null; sameName: TeamView | null }): TeamEvent[] {
  if (!s.team) throw new NotFound('team');
  if (s.sameName && s.sameName.id !== s.team.id) throw new Conflict('team_exists', `A team named "${s.sameName.name}" exists: ${s.sameName.id}.`);
  if (s.team.name === cmd.name) return [];
  return [{ type: 'team.renamed', aggregate_type: 'team', aggregate_id: s.team.id, payload: { id: s.team.id, name: cmd.name } }];
}

/**
 * PUT /api/teams/{id}: a new name, a new assignment rule, or both, in one
 * command (both or neither). What is unchanged decides nothing.
 */
export function decideUpdateTeam(
  cmd: { id: string; name?: string; assignment?: AssignmentRule },
  s: { team: TeamView | null; sameName: TeamView | null },
): TeamEvent[] {
  if (!s.team) throw new NotFound('team');
  const renamed = cmd.name === undefined ? [] : decideRenameTeam({ id: cmd.id, name: cmd.name }, s);
  const from = s.team.assignment ?? 'none';
  const assignment: TeamEvent[] =
    cmd.assignment === undefined || cmd.assignment === from
      ? []
      : [{ type: 'team.assignment_changed', aggregate_type: 'team', aggregate_id: s.team.id, payload: { id: s.team.id, from, to: cmd.assignment } }];
  return [...renamed, ...assignment];
}

/**
 * Deleting a team is ONE event that names what it unassigns: the conversations
 * assigned to the team and the channels defaulting to it. The conversations and
 * channels projections fold it (team_id / default_team_id null), and a receiver
 * learns every affected conversation from that one event, as with contact.erased.
 * Not a system assignment part per conversation: a command appends at most
 * MAX_EVENTS_PER_COMMAND (256) events, and a team can hold far more
 * conversations, so the parts could not be all-or-nothing with the deletion;
 * building conversation parts here would also make teams import conversations,
 * which already imports teams (for its team_id check).
 */
export function decideDeleteTeam(team: TeamView | null, s: { conversationIds: string[]; channelIds: string[] }): TeamEvent[] {
  if (!team) throw new NotFound('team');
  return [
    {
      type: 'team.deleted',
      aggregate_type: 'team',
      aggregate_id: team.id,
      payload: { id: team.id, name: team.name, conversation_ids: s.conversationIds, channel_ids: s.channelIds },
    },
  ];
}

/** One team's new roster; `path` prefixes error fields ("" for PUT /teams/{id}/members, "teams.N." for a move). */
export interface RosterEntry {
  teamId: string;
  memberIds: string[];
  path: string;
}

export interface RosterState {
  /** the teams the entries name, by id (absent: not a team of this workspace) */
  teams: Map<string, TeamView>;
  /** the ids among those named that are active members of this workspace */
  activeMembers: Set<string>;
}

/** The roster event of one team, or nothing when the set is unchanged. */
function rosterEvent(team: TeamView, memberIds: string[]): TeamEvent[] {
  const before = new Set(team.memberIds);
  const after = new Set(memberIds);
  const added = memberIds.filter((m) => !before.has(m));
  const removed = team.memberIds.filter((m) => !after.has(m));
  if (!added.length && !removed.length) return [];
  return [{ type: 'team.roster_changed', aggregate_type: 'team', aggregate_id: team.id, payload: { id: team.id, member_ids: memberIds, added, removed } }];
}

/**
 * Replaces the rosters of the named teams, all or nothing. Every problem is
 * reported with its path (`teams.1.team_id`, `teams.0.member_ids.2`); when there
 * is one, nothing is decided.
 */
export function decideRosters(entries: RosterEntry[], s: RosterState, opts: { single: boolean }): TeamEvent[] {
  const errors: ErrorEntry[] = [];
  const seenTeams = new Set<string>();
  for (const entry of entries) {
    if (!s.teams.has(entry.teamId)) {
      if (opts.single) throw new NotFound('team');
      errors.push({ code: 'unknown_team', message: `${entry.teamId} names no team of this workspace.`, field: `${entry.path}team_id` });
    } else if (seenTeams.has(entry.teamId)) {
      errors.push({ code: 'duplicate_team', message: `Team ${entry.teamId} is named more than once.`, field: `${entry.path}team_id` });
    }
    seenTeams.add(entry.teamId);
    const seenMembers = new Set<string>();
    entry.memberIds.forEach((m, i) => {
      const field = `${entry.path}member_ids.${i}`;
      if (!s.activeMembers.has(m)) errors.push({ code: 'unknown_member', message: `${m} names no active member of this workspace.`, field });
      else if (seenMembers.has(m)) errors.push({ code: 'duplicate_member', message: `${m} is listed more than once.`, field });
      seenMembers.add(m);
    });
  }
  if (errors.length) throw new ValidationFailed(errors);
  return entries.flatMap((e) => rosterEvent(s.teams.get(e.teamId)!, e.memberIds));
}
