import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

const MemberIds = () => Type.Array(Uuid());

export const TeamCreated = defineEvent({
  type: 'team.created',
  aggregate_type: 'team',
  description: 'A team was created (its name is unique in the workspace, ignoring case). It starts with no members.',
  payload: payload({ id: Uuid(), name: Text() }),
});

export const TeamRenamed = defineEvent({
  type: 'team.renamed',
  aggregate_type: 'team',
  description: 'A team got a new name.',
  payload: payload({ id: Uuid(), name: Text() }),
});

export const TeamRosterChanged = defineEvent({
  type: 'team.roster_changed',
  aggregate_type: 'team',
  description:
    "A team's roster changed. `member_ids` is the whole resulting roster (receivers replace, never merge); `added` and `removed` say what changed. A move between teams (POST /api/teams/rosters) appends one per team it changes, in one transaction with contiguous seqs.",
  payload: payload({ id: Uuid(), member_ids: MemberIds(), added: MemberIds(), removed: MemberIds() }),
});

export const TeamDeleted = defineEvent({
  type: 'team.deleted',
  aggregate_type: 'team',
  description:
    'A team was deleted; its name may be used again. `conversation_ids` are the conversations that were assigned to it and now have team_id null; `channel_ids` the channels whose default_team_id named it and is now null.',
  payload: payload({ id: Uuid(), name: Text(), conversation_ids: Type.Array(Uuid()), channel_ids: Type.Array(Uuid()) }),
});

/** How a team's new and reopened conversations are assigned to its members (docs/api-guide.md, Routing). */
export const ASSIGNMENT_RULES = ['none', 'round_robin', 'balanced'] as const;
const AssignmentRule = () => Type.Union(ASSIGNMENT_RULES.map((r) => Type.Literal(r)));

export const TeamAssignmentChanged = defineEvent({
  type: 'team.assignment_changed',
  aggregate_type: 'team',
  description:
    "A team's assignment rule changed (PUT /api/teams/{id}). `none`: its conversations wait for a teammate to assign them; `round_robin`: each new or reopened unassigned conversation goes to the next available member after the one the team last assigned to, by member id; `balanced`: to the available member with the fewest open conversations assigned (ties in round-robin order). Available: an active member on the roster, online, under their capacity.",
  payload: payload({ id: Uuid(), from: AssignmentRule(), to: AssignmentRule() }),
});

export const teamEvents = [TeamCreated, TeamRenamed, TeamRosterChanged, TeamDeleted, TeamAssignmentChanged] as const;
export type TeamEvent = EventOf<(typeof teamEvents)[number]>;
