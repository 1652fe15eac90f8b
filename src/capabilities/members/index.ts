// Members: who belongs to a workspace, in which role; invites; founding a workspace with its owner.
import { defineModule } from '../capability.js';
import { memberEvents } from './members.events.js';
import { membersProjector } from './members.projection.js';
import { membersRoutes } from './members.routes.js';

export { MemberJoined, type MemberEvent } from './members.events.js';
export { createWorkspace, type CreateWorkspaceInput } from './members.commands.js';
export { activeMemberOfUser, activeMembershipsOfUser, findActiveMember, findMember, memberIsActive, type MemberRow } from './members.read.js';

export const membersModule = defineModule({ name: 'members', tables: ['invite_tokens'], events: memberEvents,
  personal: [
    { type: 'member', kind: 'member', fields: ['name', 'email'] },
    { type: 'invite', kind: 'invite', fields: ['email'] },
  ],
  projectors: [membersProjector], routes: membersRoutes });
