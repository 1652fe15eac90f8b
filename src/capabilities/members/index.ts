// Members: who belongs to a workspace, in which role; invites; founding a workspace with its owner.
import { defineModule } from '../capability.js';
import { memberEvents } from './members.events.js';
import { membersProjector } from './members.projection.js';
import { membersRoutes } from './members.routes.js';
import { defineErrors } from '../../platform/errors.js';

export { MemberJoined, type MemberEvent } from './members.events.js';
export { createWorkspace, type CreateWorkspaceInput } from './members.commands.js';
export {
  activeMemberIdsAmong,
  activeMemberOfUser,
  activeMembershipsOfUser,
  findActiveMember,
  findMember,
  memberIsActive,
  routingMembersAmong,
  type MemberRow,
  type RoutingMember,
} from './members.read.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  already_member: { status: 409, when: 'Inviting someone who is already a member.' },
  too_many_invites: {
    status: 429,
    when: 'A member invited more than 20 people in a burst, or more than one every 3 minutes after it (Retry-After says when to retry).',
  },
  member_active: { status: 409, when: 'Revoking an invite that was already accepted (remove the member instead), or erasing a member not yet removed.' },
  inviter_cannot_grant: {
    status: 409,
    when: 'Accepting an invite whose inviter is no longer an active member whose role may grant the invited role (ask for a new invite).',
  },
  mail_refused: { status: 422, when: "Inviting with a mail relay that refuses the invitee's address for good (a 5xx): nothing was invited." },
  mail_relay_unavailable: {
    status: 503,
    when: 'Inviting while the mail relay is unreachable or answers 4xx: nothing was invited; `Retry-After` says when to try again.',
  },
  last_owner: { status: 409, when: 'Removing or demoting the last owner.' },
  owner_required: { status: 403, when: 'Granting or removing the owner role, or inviting an owner, without being an owner.' },
  invite_not_found: { status: 404, when: 'An invite token that is unknown, expired, revoked or used.' },
  invalid_credentials: { status: 401, when: 'Creating a workspace (the CLI) for an existing user with a wrong password.' },
  workspace_exists: { status: 409, when: 'Creating a workspace that already exists (the CLI, retried).' },
});

export const membersModule = defineModule({
  name: 'members',
  errors,
  tables: ['invite_tokens'],
  events: memberEvents,
  personal: [
    { type: 'member', kind: 'member', fields: ['name', 'email'] },
    { type: 'invite', kind: 'invite', fields: ['email'] },
  ],
  projectors: [membersProjector],
  routes: membersRoutes,
});
