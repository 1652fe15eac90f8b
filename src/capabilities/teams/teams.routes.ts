import { commandContext } from '../../api/command-context.js';
import { route, type RouteDef } from '../../api/routes.js';
import { constant, ERROR, object } from '../../api/schemas.js';
import { NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { createTeam, deleteTeam, renameTeam, setRosters } from './teams.commands.js';
import { deletedTeamSchema, findTeam, renderTeams, teamSchema, teamsByIds, teamsOf, type TeamReferences, type TeamRow } from './teams.read.js';

const name = { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' };
/** Ids are checked by the decider (unknown_member names the path), so any string up to a uuid's length passes here. */
const memberIds = { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 64 } };
const MAX_TEAMS_PER_MOVE = 50;

const teamListSchema = object({ type: constant('list'), data: { type: 'array', items: teamSchema } }, { title: 'TeamList', description: 'Every team of the workspace, by name; not paginated.' });

export function teamsRoutes(deps: CoreDeps, refs: TeamReferences): RouteDef[] {
  const { db, shell, clock } = deps;
  const reload = async (tenantId: string, id: string) => (await renderTeams(db, tenantId, [(await findTeam(db, tenantId, id))!]))[0];

  return [
    route({
      method: 'get',
      path: '/teams',
      permission: 'members:read',
      summary: 'List teams (unpaginated)',
      responses: { 200: teamListSchema },
      async handle(call) {
        const rows: TeamRow[] = await teamsOf(db, call.principal.tenantId).orderByRaw('lower(name), id');
        return { status: 200, body: { type: 'list', data: await renderTeams(db, call.principal.tenantId, rows) } };
      },
    }),

    route<{ name: string }>({
      method: 'post',
      path: '/teams',
      permission: 'members:invite',
      summary: 'Create a team',
      responses: { 201: teamSchema, 409: ERROR },
      body: { additionalProperties: false, required: ['name'], properties: { name } },
      async handle(call) {
        const [created] = await shell.execute(commandContext(call, clock), createTeam({ id: call.write.ids.uuid(), name: call.body.name.trim() }));
        return { status: 201, body: await reload(call.principal.tenantId, created!.aggregate_id) };
      },
    }),

    route({
      method: 'get',
      path: '/teams/:id',
      permission: 'members:read',
      summary: 'Get a team',
      responses: { 200: teamSchema },
      async handle(call) {
        if (!(await findTeam(db, call.principal.tenantId, call.params.id!))) throw new NotFound('team');
        return { status: 200, body: await reload(call.principal.tenantId, call.params.id!) };
      },
    }),

    route<{ name: string }>({
      method: 'put',
      path: '/teams/:id',
      permission: 'members:invite',
      summary: 'Rename a team',
      responses: { 200: teamSchema, 409: ERROR },
      body: { additionalProperties: false, required: ['name'], properties: { name } },
      async handle(call) {
        await shell.execute(commandContext(call, clock), renameTeam({ id: call.params.id!, name: call.body.name.trim() }));
        return { status: 200, body: await reload(call.principal.tenantId, call.params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/teams/:id',
      permission: 'members:invite',
      summary: 'Delete a team (its conversations and channels are unassigned from it)',
      responses: { 200: deletedTeamSchema },
      async handle(call) {
        const [deleted] = await shell.execute(commandContext(call, clock), deleteTeam({ id: call.params.id! }, refs));
        return { status: 200, body: { type: 'team', id: deleted!.aggregate_id, deleted: true } };
      },
    }),

    route<{ member_ids: string[] }>({
      method: 'put',
      path: '/teams/:id/members',
      permission: 'members:invite',
      summary: "Replace a team's roster",
      responses: { 200: teamSchema },
      body: { additionalProperties: false, required: ['member_ids'], properties: { member_ids: memberIds } },
      async handle(call) {
        const { params, body, principal } = call;
        await shell.execute(commandContext(call, clock), setRosters([{ teamId: params.id!, memberIds: body.member_ids, path: '' }], { single: true }));
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route<{ teams: { team_id: string; member_ids: string[] }[] }>({
      method: 'post',
      path: '/teams/rosters',
      permission: 'members:invite',
      summary: 'Replace several rosters at once (move members between teams), all or nothing',
      responses: { 200: teamListSchema },
      body: {
        additionalProperties: false,
        required: ['teams'],
        properties: {
          teams: {
            type: 'array',
            minItems: 1,
            maxItems: MAX_TEAMS_PER_MOVE,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['team_id', 'member_ids'],
              properties: { team_id: { type: 'string', minLength: 1, maxLength: 64 }, member_ids: memberIds },
            },
          },
        },
      },
      async handle(call) {
        const { body, principal } = call;
        const entries = body.teams.map((t, i) => ({ teamId: t.team_id, memberIds: t.member_ids, path: `teams.${i}.` }));
        await shell.execute(commandContext(call, clock), setRosters(entries, { single: false }));
        const rows = await teamsByIds(db, principal.tenantId, entries.map((e) => e.teamId));
        const byId = new Map(rows.map((r) => [r.id, r]));
        return { status: 200, body: { type: 'list', data: await renderTeams(db, principal.tenantId, entries.map((e) => byId.get(e.teamId)!)) } };
      },
    }),
  ];
}
