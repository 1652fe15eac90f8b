import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import type { RouteDef } from '../../api/routes.js';
import type { Schema } from '../../api/validation.js';
import type { CoreDeps } from '../capability.js';
import { createCompany, deleteCompany, updateCompany } from './companies.commands.js';
import {
  companiesOf,
  companyList,
  companySchema,
  deletedCompanySchema,
  findCompany,
  renderCompany,
  type CompanyRow,
  type DeletedCompany,
} from './companies.read.js';

/** Custom attributes: up to 100 keys of scalar values; in an update, null removes a key. */
export const customAttributesSchema = (allowNull: boolean): Schema => ({
  type: 'object',
  maxProperties: 100,
  propertyNames: { pattern: '^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$' },
  additionalProperties: { anyOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }, ...(allowNull ? [{ type: 'null' }] : [])] },
});

type AttributeValue = string | number | boolean;

const name = Type.String({ minLength: 1, maxLength: 255 });
const website = { format: 'uri', pattern: '^https?://', maxLength: 2048 };
const plan = { maxLength: 255 };
const size = { minimum: 0, maximum: 1_000_000_000 };
/** A field a change may clear with null: one type naming both, as ajv reports it (not an anyOf). */
const orNull = <T>(type: 'string' | 'integer', options: Schema) => Type.Unsafe<T | null>({ type: [type, 'null'], ...options });

const NewCompany = Type.Object(
  {
    company_id: Type.String({ minLength: 1, maxLength: 255 }),
    name,
    website: Type.Optional(Type.String(website)),
    plan: Type.Optional(Type.String(plan)),
    size: Type.Optional(Type.Integer(size)),
    custom_attributes: Type.Optional(Type.Unsafe<Record<string, AttributeValue>>(customAttributesSchema(false))),
  },
  { additionalProperties: false },
);

const CompanyChanges = Type.Object(
  {
    name: Type.Optional(name),
    website: Type.Optional(orNull<string>('string', website)),
    plan: Type.Optional(orNull<string>('string', plan)),
    size: Type.Optional(orNull<number>('integer', size)),
    custom_attributes: Type.Optional(Type.Unsafe<Record<string, AttributeValue | null>>(customAttributesSchema(true))),
  },
  { additionalProperties: false, minProperties: 1 },
);

export function companiesRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/companies',
      permission: 'contacts:write',
      summary: 'Create a company',
      body: NewCompany,
      command: (call) => {
        const { company_id, ...rest } = call.body;
        return createCompany({ id: call.write.ids.uuid(), companyId: company_id, fields: rest });
      },
      answer: {
        status: 201,
        schema: companySchema,
        read: async (tx, [created], call) => renderCompany((await findCompany(tx, call.principal.tenantId, created!.aggregate_id))!),
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

    getRoute({
      path: '/companies/:id',
      permission: 'contacts:read',
      summary: 'Get a company',
      resource: companySchema,
      what: 'company',
      find: ({ principal, params }) => findCompany(db, principal.tenantId, params.id),
      render: renderCompany,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/companies/:id',
      permission: 'contacts:write',
      summary: 'Change a company',
      body: CompanyChanges,
      command: (call) => updateCompany({ id: call.params.id, fields: call.body }),
      answer: {
        status: 200,
        schema: companySchema,
        read: async (tx, _events, call) => renderCompany((await findCompany(tx, call.principal.tenantId, call.params.id))!),
      },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/companies/:id',
      permission: 'contacts:write',
      summary: 'Delete a company',
      command: (call) => deleteCompany({ id: call.params.id }),
      answer: {
        status: 200,
        schema: deletedCompanySchema,
        read: async (_tx, [deleted]): Promise<DeletedCompany> => ({ type: 'company', id: deleted!.aggregate_id, deleted: true }),
      },
    }),
  ];
}
