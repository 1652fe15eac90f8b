// Companies: the organisations contacts belong to, identified by the
// workspace's own company_id. Not personal data, so nothing here is sealed.
import { defineModule } from '../capability.js';
import { companyEvents } from './companies.events.js';
import { companiesProjector } from './companies.projection.js';
import { companiesRoutes } from './companies.routes.js';

export { findCompany, renderCompany, companySchema, type CompanyRow } from './companies.read.js';
export type { CompanyEvent } from './companies.events.js';

export const companiesModule = defineModule({ name: 'companies', events: companyEvents, projectors: [companiesProjector], routes: companiesRoutes });
