import { commandContext } from '../../api/command-context.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { route, type RouteDef } from '../../api/routes.js';
import type { Schema } from '../../api/validation.js';
import type { CoreDeps } from '../capability.js';
import { createCompany, deleteCompany, updateCompany } from './companies.commands.js';
import type { CompanyFields } from './companies.decider.js';
import { companiesOf, companyList, companySchema, deletedCompanySchema, findCompany, renderCompany, type CompanyRow } from './companies.read.js';

/** Custom attributes: up to 100 keys of scalar values; in an update, null removes a key. */
export const customAttributesSchema = (allowNull: boolean): Schema => ({
  type: 'object',
  maxProperties: 100,
  propertyNames: { pattern: '^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$' },
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }, ...(allowNull ? [{ type: 'null' }] : [])] },
});

const fields = (allowNull: boolean): Record<string, Schema> => ({
  name: { type: 'string', minLength: 1, maxLength: 255 },
  website: { type: allowNull ? ['string', 'null'] : 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
  plan: { type: allowNull ? ['string', 'null'] : 'string', maxLength: 255 },
  size: { type: allowNull ? ['integer', 'null'] : 'integer', minimum: 0, maximum: 1_000_000_000 },
  custom_attributes: customAttributesSchema(allowNull),
});

export function companiesRoutes(deps: CoreDeps): RouteDef[] {
  const { db, shell, clock } = deps;
  const reload = async (tenantId: string, id: string) => renderCompany((await findCompany(db, tenantId, id))!);

  return [
    route<CompanyFields & { company_id: string; name: string }>({
      method: 'post',
      path: '/companies',
      permission: 'contacts:write',
      summary: 'Create a company',
      responses: { 201: companySchema },
      body: { additionalProperties: false, required: ['company_id', 'name'], properties: { company_id: { type: 'string', minLength: 1, maxLength: 255 }, ...fields(false) } },
      async handle(call) {
        const { company_id, ...rest } = call.body;
        const [created] = await shell.execute(commandContext(call, clock), createCompany({ id: call.write.ids.uuid(), companyId: company_id, fields: rest }));
        return { status: 201, body: await reload(call.principal.tenantId, created!.aggregate_id) };
      },
    }),

    listRoute<CompanyRow, { company_id?: string }>({
      path: '/companies',
      permission: 'contacts:read',
      summary: 'List companies',
      item: companySchema,
      spec: companyList,
      filters: { company_id: { type: 'string', minLength: 1, maxLength: 255 } },
      query: ({ principal, query }) => {
        const q = companiesOf(db, principal.tenantId);
        return query.company_id ? q.andWhere({ company_id: query.company_id }) : q;
      },
      render: renderCompany,
    }),

    getRoute<CompanyRow>({
      path: '/companies/:id',
      permission: 'contacts:read',
      summary: 'Get a company',
      resource: companySchema,
      what: 'company',
      find: ({ principal, params }) => findCompany(db, principal.tenantId, params.id!),
      render: renderCompany,
    }),

    route<CompanyFields>({
      method: 'put',
      path: '/companies/:id',
      permission: 'contacts:write',
      summary: 'Change a company',
      responses: { 200: companySchema },
      body: { additionalProperties: false, minProperties: 1, properties: fields(true) },
      async handle(call) {
        const { principal, params, body } = call;
        await shell.execute(commandContext(call, clock), updateCompany({ id: params.id!, fields: body }));
        return { status: 200, body: await reload(principal.tenantId, params.id!) };
      },
    }),

    route({
      method: 'delete',
      path: '/companies/:id',
      permission: 'contacts:write',
      summary: 'Delete a company',
      responses: { 200: deletedCompanySchema },
      async handle(call) {
        const [deleted] = await shell.execute(commandContext(call, clock), deleteCompany({ id: call.params.id! }));
        return { status: 200, body: { type: 'company', id: deleted!.aggregate_id, deleted: true } };
      },
    }),
  ];
}
