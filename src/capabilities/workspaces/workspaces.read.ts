import type { Db } from '../../commands/command.js';
import { constant, object, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { WORKSPACES } from './workspaces.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `workspaces` (RowOf: its spec's columns, NULL where the table takes it). */
export type WorkspaceRow = RowOf<typeof WORKSPACES>;

export async function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return isUuid(id) ? db('workspaces').where({ id }).first() : undefined;
}

export async function findWorkspaces(db: Db, ids: string[]): Promise<WorkspaceRow[]> {
  return ids.length ? db('workspaces').whereIn('id', ids).orderBy('created_at') : [];
}

export const renderWorkspace = (w: WorkspaceRow): Workspace => ({ type: 'workspace', id: w.id, name: w.name });

export const workspaceSchema = object({ type: constant('workspace'), id: uuid, name: str() }, { title: 'Workspace' });
export type Workspace = Static<typeof workspaceSchema>;
