// Workspaces: the tenants. Founding one (with its owner) is a membership
// command (members.commands.ts); this folder owns the workspace rows.
import { defineModule } from '../capability.js';
import { workspaceEvents } from './workspaces.events.js';
import { workspacesProjector } from './workspaces.projection.js';

export { WorkspaceCreated, type WorkspaceEvent } from './workspaces.events.js';
export { findWorkspace, findWorkspaces, renderWorkspace, workspaceSchema, type WorkspaceRow } from './workspaces.read.js';

export const workspacesModule = defineModule({ name: 'workspaces', events: workspaceEvents, projectors: [workspacesProjector] });
