import type { Projector } from '../../projections/projector.js';
import { TableBatch } from '../../projections/table-batch.js';

const WORKSPACES = { table: 'workspaces', key: ['id'], columns: { id: 'uuid', name: 'text', created_at: 'timestamptz' } } as const;

export const workspacesProjector: Projector = {
  name: 'workspaces',
  handles: ['workspace.created'],
  tables: ['workspaces'],
  project(events, writes) {
    const workspaces = new TableBatch(WORKSPACES);
    for (const e of events) workspaces.insert({ id: e.tenant_id, name: e.payload.name, created_at: e.created_at });
    writes.add(...workspaces.statements());
  },
};
