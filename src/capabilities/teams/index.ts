// Teams: named groups of members that conversations (team_id) and channels
// (default_team_id) are assigned to. Conversations and channels import
// teamExists from here to check those ids; teams never imports them back.
import { defineModule } from '../capability.js';
import { teamEvents } from './teams.events.js';
import { teamsProjector } from './teams.projection.js';
import type { TeamReferences } from './teams.read.js';
import { teamsRoutes } from './teams.routes.js';
import { defineErrors } from '../../platform/errors.js';

export { findTeam, teamExists, teamRouting, type TeamReferences, type TeamRow } from './teams.read.js';
export type { AssignmentRule } from './teams.decider.js';
export type { TeamEvent } from './teams.events.js';

/** The module, given how to find what a deletion unassigns (see TeamReferences). */
/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  team_exists: { status: 409, when: 'A team with this name already exists in the workspace.' },
  unknown_member: { status: 400, when: 'A team member who is not an active member of the workspace.' },
  unknown_team: { status: 400, when: 'Changing a team the workspace does not have, in a batch.' },
  duplicate_team: { status: 400, when: 'A batch naming the same team twice.' },
  duplicate_member: { status: 400, when: 'A member listed twice in one team.' },
});

export const teamsModule = (refs: TeamReferences) =>
  defineModule({ name: 'teams', errors, events: teamEvents, projectors: [teamsProjector], routes: (deps) => teamsRoutes(deps, refs) });
