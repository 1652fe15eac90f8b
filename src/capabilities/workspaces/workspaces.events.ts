import { defineEvent, payload, Text, Uuid, type EventOf } from '../../eventstore/catalogue.js';

export const WorkspaceCreated = defineEvent({
  type: 'workspace.created',
  aggregate_type: 'workspace',
  description: 'A workspace (tenant) was founded. Its first member, the owner, joins in the same command (member.joined).',
  payload: payload({ workspace_id: Uuid(), name: Text() }),
});

export const workspaceEvents = [WorkspaceCreated] as const;
export type WorkspaceEvent = EventOf<typeof WorkspaceCreated>;
