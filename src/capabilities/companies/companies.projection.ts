import type { Projector } from '../../projections/projector.js';
import type { CompanyEvent } from './companies.events.js';
import { tableSpec } from '../../projections/table-batch.js';

export const COMPANIES = tableSpec({
  table: 'companies',
  key: ['tenant_id', 'id'],
  nullable: ['plan', 'size', 'website'],
  columns: {
    tenant_id: 'uuid',
    id: 'uuid',
    company_id: 'text',
    name: 'text',
    website: 'text',
    plan: 'text',
    size: 'int',
    custom_attributes: 'jsonb',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  },
} as const);

export const companiesProjector: Projector<CompanyEvent> = {
  name: 'companies',
  handles: ['company.created', 'company.updated', 'company.deleted'],
  tables: ['companies'],
  project(events, writes) {
    const companies = writes.table(COMPANIES);
    for (const e of events) {
      const key = { tenant_id: e.tenant_id, id: e.payload.id };
      switch (e.type) {
        case 'company.created': {
          const { id: _id, ...fields } = e.payload;
          companies.insert({ ...key, ...fields, created_at: e.created_at, updated_at: e.created_at });
          break;
        }
        case 'company.updated': {
          const { id: _id, ...changes } = e.payload;
          companies.patch(key, { ...changes, updated_at: e.created_at });
          break;
        }
        case 'company.deleted':
          companies.delete(key);
          break;
        default: {
          const never: never = e;
          throw new Error(`companies projector: unhandled ${JSON.stringify(never)}`);
        }
      }
    }
  },
};
