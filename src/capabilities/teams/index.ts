// Teams: named groups of members that conversations (team_id) and channels
// (default_team_id) are assigned to. Conversations and channels import
// teamExists from here to check those ids; teams never imports them back.
import { defineModule } from '../capability.js';
import { teamEvents } from './teams.events.js';
import { teamsProjector } from './teams.projection.js';
import type { TeamReferences } from './teams.read.js';
import { teamsRoutes } from './teams.routes.js';

export { findTeam, teamExists, type TeamReferences, type TeamRow } from './teams.read.js';
export type { TeamEvent } from './teams.events.js';

/** The module, given how to find what a deletion unassigns (see TeamReferences). */
export const teamsModule = (refs: TeamReferences) => defineModule({ name: 'teams', events: teamEvents, projectors: [teamsProjector], routes: (deps) => teamsRoutes(deps, refs) });
