import type { NewEvent } from '../../eventstore/envelope.js';
import { Conflict } from '../../platform/errors.js';

export interface CreateWorkspace {
  workspaceId: string;
  name: string;
  owner: { memberId: string; userId: string; email: string; name: string };
}

export interface WorkspaceState {
  exists: boolean;
}

/** A workspace starts with its owner as its first member. */
export function decideCreateWorkspace(cmd: CreateWorkspace, state: WorkspaceState): NewEvent[] {
  if (state.exists) throw new Conflict('workspace_exists', 'This workspace already exists.');
  return [
    { type: 'workspace.created', aggregate_type: 'workspace', aggregate_id: cmd.workspaceId, payload: { workspace_id: cmd.workspaceId, name: cmd.name } },
    {
      type: 'member.joined',
      aggregate_type: 'member',
      aggregate_id: cmd.owner.memberId,
      payload: { member_id: cmd.owner.memberId, user_id: cmd.owner.userId, email: cmd.owner.email, name: cmd.owner.name, role: 'owner' },
    },
  ];
}
