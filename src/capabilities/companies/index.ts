// Companies: the organisations contacts belong to, identified by the
// workspace's own company_id. Not personal data, so nothing here is sealed.
import { defineModule } from '../capability.js';
import { companyEvents } from './companies.events.js';
import { companiesProjector } from './companies.projection.js';
import { companiesRoutes } from './companies.routes.js';
import { defineErrors } from '../../platform/errors.js';

export { companiesByIds, companySchema, customAttributeValuesSchema, findCompany, renderCompany, type Company, type CompanyRow } from './companies.read.js';
export { CustomAttributes, type CompanyEvent, type CustomAttributeValues } from './companies.events.js';
export { mergeAttributes, sameAttributes } from './companies.decider.js';
export { customAttributesSchema } from './companies.routes.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  company_exists: { status: 409, when: 'A company with this `company_id` already exists in the workspace.' },
});

export const companiesModule = defineModule({ name: 'companies', errors, events: companyEvents, projectors: [companiesProjector], routes: companiesRoutes });
