import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { route, type RouteDef } from '../../api/routes.js';
import { ERROR } from '../../api/schemas.js';
import type { Db } from '../../platform/db/database.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { createTeam, deleteTeam, setRosters, updateTeam } from './teams.commands.js';
import type { AssignmentRule } from './teams.decider.js';
import { ASSIGNMENT_RULES } from './teams.events.js';
import {
  deletedTeamSchema,
  findTeam,
  renderTeams,
  teamListSchema,
  teamSchema,
  teamsByIds,
  teamsOf,
  type DeletedTeam,
  type Team,
  type TeamList,
  type TeamReferences,
  type TeamRow,
} from './teams.read.js';

const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
const TeamName = Type.Object({ name: Name }, { additionalProperties: false });
const TeamChange = Type.Object(
  {
    name: Type.Optional(Name),
    assignment: Type.Optional(
      Type.Unsafe<AssignmentRule>({
        type: 'string',
        enum: [...ASSIGNMENT_RULES],
        description: 'How new and reopened unassigned conversations of the team are assigned (see Routing in the API guide).',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, description: 'A new name, a new assignment rule, or both.' },
);
/** Ids are checked by the decider (unknown_member names the path), so any string up to a uuid's length passes here. */
const memberIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 500 });
const MAX_TEAMS_PER_MOVE = 50;
const Roster = Type.Object({ member_ids: memberIds }, { additionalProperties: false });
const Rosters = Type.Object(
  {
    teams: Type.Array(Type.Object({ team_id: Type.String({ minLength: 1, maxLength: 64 }), member_ids: memberIds }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: MAX_TEAMS_PER_MOVE,
    }),
  },
  { additionalProperties: false },
);

export function teamsRoutes(deps: CoreDeps, refs: TeamReferences): RouteDef[] {
  const { db } = deps;
  /** a team as answers show it, read through `h` (the command's transaction, or the pool) */
  const teamAnswer = async (h: Db, tenantId: string, row: TeamRow): Promise<Team> => (await renderTeams(h, tenantId, [row]))[0]!;

  return [
    route({
      method: 'get',
      path: '/teams',
      permission: 'members:read',
      summary: 'List teams (unpaginated)',
      responses: { 200: teamListSchema },
      async handle(call) {
        const rows: TeamRow[] = await teamsOf(db, call.principal.tenantId).orderByRaw('lower(name), id');
        return { status: 200, body: { type: 'list', data: await renderTeams(db, call.principal.tenantId, rows) } satisfies TeamList };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/teams',
      permission: 'members:invite',
      summary: 'Create a team',
      body: TeamName,
      responses: { 409: ERROR },
      command: (call) => createTeam({ id: call.write.ids.uuid(), name: call.body.name.trim() }),
      answer: {
        status: 201,
        schema: teamSchema,
        read: async (tx, [created], call) => teamAnswer(tx, call.principal.tenantId, (await findTeam(tx, call.principal.tenantId, created!.aggregate_id))!),
      },
    }),

    route({
      method: 'get',
      path: '/teams/:id',
      permission: 'members:read',
      summary: 'Get a team',
      responses: { 200: teamSchema },
      async handle(call) {
        const row = await findTeam(db, call.principal.tenantId, call.params.id);
        if (!row) throw new NotFound('team');
        return { status: 200, body: await teamAnswer(db, call.principal.tenantId, row) };
      },
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/teams/:id',
      permission: 'members:invite',
      summary: 'Rename a team, change its assignment rule (routing), or both',
      body: TeamChange,
      responses: { 409: ERROR },
      command: (call) => updateTeam({ id: call.params.id, name: call.body.name?.trim(), assignment: call.body.assignment }),
      answer: {
        status: 200,
        schema: teamSchema,
        read: async (tx, _events, call) => teamAnswer(tx, call.principal.tenantId, (await findTeam(tx, call.principal.tenantId, call.params.id))!),
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/teams/:id',
      permission: 'members:invite',
      summary: 'Delete a team (its conversations and channels are unassigned from it)',
      command: (call) => deleteTeam({ id: call.params.id }, refs),
      answer: {
        status: 200,
        schema: deletedTeamSchema,
        read: async (_tx, [deleted]): Promise<DeletedTeam> => ({ type: 'team', id: deleted!.aggregate_id, deleted: true }),
      },
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/teams/:id/members',
      permission: 'members:invite',
      summary: "Replace a team's roster",
      body: Roster,
      command: (call) => setRosters([{ teamId: call.params.id, memberIds: call.body.member_ids, path: '' }], { single: true }),
      answer: {
        status: 200,
        schema: teamSchema,
        read: async (tx, _events, call) => teamAnswer(tx, call.principal.tenantId, (await findTeam(tx, call.principal.tenantId, call.params.id))!),
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/teams/rosters',
      permission: 'members:invite',
      summary: 'Replace several rosters at once (move members between teams), all or nothing',
      body: Rosters,
      command: (call) =>
        setRosters(
          call.body.teams.map((t, i) => ({ teamId: t.team_id, memberIds: t.member_ids, path: `teams.${i}.` })),
          { single: false },
        ),
      answer: {
        status: 200,
        schema: teamListSchema,
        read: async (tx, _events, call): Promise<TeamList> => {
          const { body, principal } = call;
          const ids = body.teams.map((t) => t.team_id);
          const byId = new Map((await teamsByIds(tx, principal.tenantId, ids)).map((r) => [r.id, r]));
          return {
            type: 'list',
            data: await renderTeams(
              tx,
              principal.tenantId,
              ids.map((id) => byId.get(id)!),
            ),
          };
        },
      },
    }),
  ];
}
