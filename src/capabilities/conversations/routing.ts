// Routing, the pure part: which member a team's assignment rule gives a new or
// reopened unassigned conversation, and the assignment part that says so. The
// state it decides on (the team's rule and roster, each member's availability,
// capacity and open conversations, the member the team last assigned to) is
// loaded by the command's state loader under the workspace's append lock
// (routing.read.ts), so two commands never decide on the same cursor: the lock
// serialises transactions across processes, and within a group commit a routed
// command names no keys, so it is loaded after every earlier write of its group
// and ends its keyed run (CommandSpec.keys).
import { deterministicUuid } from '../../platform/ids.js';
import type { ConversationEvent, ROUTING_RULES } from './conversations.events.js';

export type RoutingRule = (typeof ROUTING_RULES)[number];

/** An active member on the team's roster, as routing weighs them. */
export interface RoutingCandidate {
  id: string;
  online: boolean;
  /** the most open conversations routing gives them; null: no limit */
  capacity: number | null;
  /** open conversations assigned to them now (any team's) */
  open: number;
}

/** What routing decides on, for the conversation's team; null when the team assigns nothing (`none`, or no team). */
export interface TeamRouting {
  teamId: string;
  rule: RoutingRule;
  candidates: RoutingCandidate[];
  /** the member this team's rule last assigned to (round robin's cursor); null: none yet */
  last: string | null;
}

const byId = (a: RoutingCandidate, b: RoutingCandidate) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The member the team's rule gives the conversation, or null when nobody is
 * available (it stays unassigned). Available: online and under their capacity.
 * round_robin: the first available member after `last`, by member id, wrapping
 * round; balanced: among the available members with the fewest open
 * conversations, the same round-robin order.
 */
export function pickAssignee(r: TeamRouting): string | null {
  const available = r.candidates.filter((c) => c.online && (c.capacity === null || c.open < c.capacity)).sort(byId);
  if (available.length === 0) return null;
  const least = Math.min(...available.map((c) => c.open));
  const pool = r.rule === 'balanced' ? available.filter((c) => c.open === least) : available;
  const next = r.last === null ? undefined : pool.find((c) => c.id > r.last!);
  return (next ?? pool[0]!).id;
}

/** The id of the assignment part routing appends beside the part `partId` (derived: a retried command names the same). */
export const routingPartId = (partId: string): string => deterministicUuid('routing', partId);

/**
 * The assignment part routing appends after the part that opened or reopened
 * the conversation (`partId`'s), or nothing when no member is available or the
 * conversation is not the team's.
 */
export function routedAssignment(
  c: { conversationId: string; channelId: string; teamId: string | null; partId: string },
  routing: TeamRouting | null | undefined,
): ConversationEvent[] {
  if (!routing || routing.teamId !== c.teamId) return [];
  const assignee = pickAssignee(routing);
  if (assignee === null) return [];
  return [
    {
      type: 'conversation_part.created',
      aggregate_type: 'conversation',
      aggregate_id: c.conversationId,
      payload: {
        conversation_id: c.conversationId,
        part_id: routingPartId(c.partId),
        part_type: 'assignment',
        channel_id: c.channelId,
        author: { type: 'system', id: 'routing' },
        body: null,
        assignee_id: assignee,
        assigned_by: { rule: routing.rule, team_id: routing.teamId },
      },
    },
  ];
}
