import type { CommandSpec } from '../../commands/command.js';
import { decideCreateCompany, decideDeleteCompany, decideUpdateCompany, type CompanyFields, type CompanyView } from './companies.decider.js';
import type { CompanyEvent } from './companies.events.js';
import { companyView, findCompany, findCompanyByCompanyId } from './companies.read.js';

export const createCompany = (input: {
  id: string;
  companyId: string;
  fields: CompanyFields & { name: string };
}): CommandSpec<{ existing: CompanyView | null }, CompanyEvent> => ({
  name: 'CreateCompany',
  load: async (db, ctx) => ({ existing: companyView(await findCompanyByCompanyId(db, ctx.tenantId, input.companyId)) }),
  decide: (s) => decideCreateCompany(input, s),
});

export const updateCompany = (input: { id: string; fields: CompanyFields }): CommandSpec<CompanyView | null, CompanyEvent> => ({
  name: 'UpdateCompany',
  load: async (db, ctx) => companyView(await findCompany(db, ctx.tenantId, input.id)),
  decide: (c) => decideUpdateCompany(input, c),
});

export const deleteCompany = (input: { id: string }): CommandSpec<CompanyView | null, CompanyEvent> => ({
  name: 'DeleteCompany',
  load: async (db, ctx) => companyView(await findCompany(db, ctx.tenantId, input.id)),
  decide: (c) => decideDeleteCompany(input, c),
});
