import type { Projector } from '../../projections/projector.js';
import type { WorkspaceEvent } from './workspaces.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const WORKSPACES = tableSpec({ table: 'workspaces', key: ['id'], columns: { id: 'uuid', name: 'text', created_at: 'timestamptz' } } as const);

export const workspacesProjector: Projector<WorkspaceEvent> = {
  name: 'workspaces',
  handles: ['workspace.created'],
  tables: ['workspaces'],
  project(events, writes) {
    const workspaces = writes.table(WORKSPACES);
    for (const e of events) workspaces.insert({ id: e.tenant_id, name: e.payload.name, created_at: e.created_at });
  },
};
