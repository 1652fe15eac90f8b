import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { isUuid } from '../../platform/ids.js';
import { Type } from '@sinclair/typebox';
import { constant, dateTime, int, nullable, object, recordOf, str, uuid, type Static } from '../../api/schemas.js';
import type { CompanyView } from './companies.decider.js';
import type { CustomAttributeValues } from './companies.events.js';
import type { COMPANIES } from './companies.projection.js';
import type { RowOf } from '../../projections/table-batch.js';

/** A row of `companies` (RowOf: its spec's columns, NULL where the table takes it), what the table cannot say narrowed. */
export type CompanyRow = RowOf<typeof COMPANIES> & {
  custom_attributes: CustomAttributeValues;
};

export const companyList: ListSpec = {
  itemType: 'company',
  sorts: {
    created_at: { column: 'created_at', kind: 'timestamp' },
    updated_at: { column: 'updated_at', kind: 'timestamp' },
    name: { column: 'name', kind: 'text' },
  },
  defaultSort: 'created_at',
  defaultOrder: 'desc',
};

export const renderCompany = (c: CompanyRow): Company => ({
  type: 'company',
  id: c.id,
  company_id: c.company_id,
  name: c.name,
  website: c.website,
  plan: c.plan,
  size: c.size,
  custom_attributes: c.custom_attributes,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

export const companiesOf = (db: Db, tenantId: string) => db('companies').where({ tenant_id: tenantId });

export async function findCompany(db: Db, tenantId: string, id: string): Promise<CompanyRow | undefined> {
  return isUuid(id) ? companiesOf(db, tenantId).andWhere({ id }).first() : undefined;
}

/** By the workspace's own identifier. */
export async function findCompanyByCompanyId(db: Db, tenantId: string, companyId: string): Promise<CompanyRow | undefined> {
  return companiesOf(db, tenantId).andWhere({ company_id: companyId }).first();
}

/** Companies by the service's ids (those that exist; deleted ones are left out). */
export async function companiesByIds(db: Db, tenantId: string, ids: readonly string[]): Promise<CompanyRow[]> {
  const wanted = [...new Set(ids.filter(isUuid))];
  return wanted.length ? companiesOf(db, tenantId).whereIn('id', wanted) : [];
}

export const companyView = (c: CompanyRow | undefined): CompanyView | null =>
  c ? { id: c.id, companyId: c.company_id, name: c.name, website: c.website, plan: c.plan, size: c.size, customAttributes: c.custom_attributes } : null;

/** Custom attribute values as answers show them (companies' and contacts'). */
export const customAttributeValuesSchema = recordOf(Type.Unsafe<CustomAttributeValues[string]>({ type: ['string', 'number', 'boolean'] }));

export const companySchema = object(
  {
    type: constant('company'),
    id: uuid,
    company_id: str(),
    name: str(),
    website: nullable(str()),
    plan: nullable(str()),
    size: nullable(int),
    custom_attributes: customAttributeValuesSchema,
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'Company' },
);
export type Company = Static<typeof companySchema>;

export const deletedCompanySchema = object({ type: constant('company'), id: uuid, deleted: constant(true) }, { title: 'DeletedCompany' });
export type DeletedCompany = Static<typeof deletedCompanySchema>;
