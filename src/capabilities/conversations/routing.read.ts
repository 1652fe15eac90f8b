// Routing's state, read by the command's state loader inside its transaction,
// after the workspace's append lock was granted (see routing.ts).
import type { Db } from '../../commands/command.js';
import { routingMembersAmong } from '../members/index.js';
import { teamRouting } from '../teams/index.js';
import type { TeamRouting } from './routing.js';

/**
 * What the team's assignment rule decides on; null when the team assigns
 * nothing (rule `none`) or is no team of the workspace. Candidates are the
 * roster's active members, with their open conversations counted now.
 */
export async function loadRouting(db: Db, tenantId: string, teamId: string | null | undefined): Promise<TeamRouting | null> {
  const team = await teamRouting(db, tenantId, teamId);
  if (!team || team.assignment === 'none') return null;
  const members = await routingMembersAmong(db, tenantId, team.memberIds);
  const ids = members.map((m) => m.id);
  const [open, cursor] = await Promise.all([
    ids.length
      ? (db('conversations')
          .where({ tenant_id: tenantId, state: 'open' })
          .whereIn('assignee_id', ids)
          .groupBy('assignee_id')
          .select('assignee_id', db.raw('count(*)::int AS n')) as Promise<{ assignee_id: string; n: number }[]>)
      : Promise.resolve([]),
    db('conversation_routing').where({ tenant_id: tenantId, team_id: teamId! }).first('last_assignee_id') as Promise<{ last_assignee_id: string } | undefined>,
  ]);
  const openOf = new Map(open.map((r) => [r.assignee_id, Number(r.n)]));
  return {
    teamId: teamId!,
    rule: team.assignment,
    candidates: members.map((m) => ({ id: m.id, online: m.availability === 'online', capacity: m.capacity, open: openOf.get(m.id) ?? 0 })),
    last: cursor?.last_assignee_id ?? null,
  };
}
