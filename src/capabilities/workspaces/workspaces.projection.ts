import type { Projector } from '../../projections/projector.js';

export const workspacesProjector: Projector = {
  name: 'workspaces',
  handles: ['workspace.created'],
  tables: ['workspaces'],
  async project(db, events) {
    await db('workspaces')
      .insert(events.map((e) => ({ id: e.tenant_id, name: e.payload.name, created_at: e.created_at })))
      .onConflict('id')
      .merge();
  },
};
