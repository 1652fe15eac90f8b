// Teams: named groups of members that conversations (team_id) and channels
// (default_team_id) are assigned to. Conversations and channels import
// teamExists from here to check those ids; teams never imports them back.
import { defineModule } from '../capability.js';
import { teamEvents } from './teams.events.js';
import { teamsProjector } from './teams.projection.js';
import { teamsRoutes } from './teams.routes.js';

export { findTeam, teamExists, type TeamRow } from './teams.read.js';
export type { TeamEvent } from './teams.events.js';

export const teamsModule = defineModule({ name: 'teams', events: teamEvents, projectors: [teamsProjector], routes: teamsRoutes });
