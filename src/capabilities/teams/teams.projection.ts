import type { Projector } from '../../projections/projector.js';
import type { TeamEvent } from './teams.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const TEAMS = tableSpec({
  table: 'teams',
  key: ['tenant_id', 'id'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    name: 'text',
    member_ids: 'jsonb',
    assignment: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const teamsProjector: Projector<TeamEvent> = {
  name: 'teams',
  handles: ['team.created', 'team.renamed', 'team.roster_changed', 'team.deleted', 'team.assignment_changed'],
  tables: ['teams'],
  project(events, writes) {
    const teams = writes.table(TEAMS);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'team.created':
          teams.insert({ ...key, name: e.payload.name, member_ids: [], assignment: 'none', created_at: e.created_at, updated_at: e.created_at });
          break;
        case 'team.renamed':
          teams.patch(key, { name: e.payload.name, updated_at: e.created_at });
          break;
        case 'team.roster_changed':
          teams.patch(key, { member_ids: e.payload.member_ids, updated_at: e.created_at });
          break;
        case 'team.deleted':
          teams.delete(key);
          break;
        case 'team.assignment_changed':
          teams.patch(key, { assignment: e.payload.to, updated_at: e.created_at });
          break;
        default: {
          const never: never = e;
          throw new Error(`teams projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
