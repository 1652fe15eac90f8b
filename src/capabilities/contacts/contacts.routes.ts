import { Type } from '@sinclair/typebox';
import type { Db } from '../../platform/db/database.js';
import { listRoute, searchRoute } from '../../api/resource-routes.js';
import { contactSearch } from './contacts.search.js';
import { withAsOf } from '../../api/history.js';
import { pastContact } from './contacts.history.js';
import { route, type Call, type RouteDef } from '../../api/routes.js';
import { commandRoute } from '../../api/command-route.js';
import { ERROR, uuid } from '../../api/schemas.js';
import type { Schema } from '../../api/validation.js';
import { NotFound } from '../../platform/errors.js';
import { customAttributesSchema, findCompany } from '../companies/index.js';
import { ownerLookup, type CoreDeps } from '../capability.js';
import { archiveContact, attachCompany, createContact, detachCompany, tagContact, updateContact } from './contacts.commands.js';
import { contactErased, contactMerged } from './contacts.decider.js';
import { byEmail, contactIdsOfCompany, contactList, contactSchema, contactsOf, findContactRow, renderContacts, type ContactRow } from './contacts.read.js';

type AttributeValue = string | number | boolean;
const externalId = { minLength: 1, maxLength: 255 };
const email = { format: 'email', maxLength: 320 };
const name = { maxLength: 255 };
const phone = { maxLength: 64 };
/** A field a change may clear with null: one type naming both, as ajv reports it (not an anyOf). */
const orNull = (options: Schema) => Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

const NewContact = Type.Object(
  {
    external_id: Type.Optional(Type.String(externalId)),
    email: Type.Optional(Type.String(email)),
    name: Type.Optional(Type.String(name)),
    phone: Type.Optional(Type.String(phone)),
    custom_attributes: Type.Optional(Type.Unsafe<Record<string, AttributeValue>>(customAttributesSchema(false))),
  },
  { additionalProperties: false },
);

const ContactChanges = Type.Object(
  {
    external_id: Type.Optional(orNull(externalId)),
    email: Type.Optional(orNull(email)),
    name: Type.Optional(orNull(name)),
    phone: Type.Optional(orNull(phone)),
    custom_attributes: Type.Optional(Type.Unsafe<Record<string, AttributeValue | null>>(customAttributesSchema(true))),
  },
  { additionalProperties: false, minProperties: 1 },
);

const CompanyRef = Type.Object(
  { company_id: Type.String({ format: 'uuid', description: "The company's `id` (not the workspace's own `company_id`)." }) },
  { additionalProperties: false },
);
const TagRef = Type.Object({ tag_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

/** 410 on a contact the workspace erased, besides the statuses every route of its kind gives. */
const gone = { 410: ERROR };

interface ListFilters {
  email?: string;
  external_id?: string;
  company_id?: string;
  archived?: boolean;
}

const archivedFilter: Schema = {
  type: 'boolean',
  description: 'Left out: active contacts only. `true`: archived contacts only. `false`: active contacts only.',
};

export function contactsRoutes(deps: CoreDeps): RouteDef[] {
  const { db } = deps;

  /** The contact as it now is: 404 when the workspace has no such contact, 410 when it was erased. */
  const current = async (tenantId: string, id: string, tx: Db = db) => {
    const row = await findContactRow(tx, tenantId, id);
    if (!row) throw new NotFound('contact');
    if (row.erased_at) throw contactErased(row.id);
    if (row.merged_into) throw contactMerged(row.id, row.merged_into);
    return (await renderContacts(tx, tenantId, [row]))[0]!;
  };

  /**
   * Runs a contact command and answers the contact as it then is (`id`, else the one its first event is about),
   * read in the command's transaction when the answer is stored with it (answerCommand).
   */
  const finish = async (call: Call, page: unknown) => {
    const p = page as { data: ContactRow[] };
    return { ...p, data: await renderContacts(db, call.principal.tenantId, p.data) };
  };

  const archiveRoute = (archived: boolean) =>
    commandRoute(deps, {
      method: 'post',
      path: archived ? ('/contacts/:id/archive' as const) : ('/contacts/:id/unarchive' as const),
      permission: 'contacts:write',
      summary: archived ? 'Archive a contact' : 'Unarchive a contact',
      responses: gone,
      command: (call) => archiveContact({ id: call.params.id, archived }),
      answer: { status: 200, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, call.params.id, tx) },
    });

  return [
    commandRoute(deps, {
      method: 'post',
      path: '/contacts',
      permission: 'contacts:write',
      summary: 'Create a contact',
      body: NewContact,
      command: (call) => createContact({ id: call.write.ids.uuid(), fields: call.body }),
      answer: { status: 201, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, events[0]!.aggregate_id, tx) },
    }),

    listRoute<ContactRow, ListFilters>({
      path: '/contacts',
      permission: 'contacts:read',
      summary: 'List contacts',
      item: contactSchema,
      spec: contactList,
      filters: {
        email: { type: 'string', minLength: 1, maxLength: 320, description: 'Exact e-mail, compared case-insensitively.' },
        external_id: { type: 'string', minLength: 1, maxLength: 255 },
        company_id: { ...uuid, description: "Contacts of this company (the company's `id`)." },
        archived: archivedFilter,
      },
      query: ({ principal, query }) => {
        const q = contactsOf(db, principal.tenantId);
        if (query.archived) q.whereNotNull('archived_at');
        else q.whereNull('archived_at');
        if (query.email) byEmail(q, query.email);
        if (query.external_id) q.andWhere({ external_id: query.external_id });
        if (query.company_id) q.whereIn('id', contactIdsOfCompany(db, principal.tenantId, query.company_id));
        return q;
      },
      render: (row) => row,
      finish,
    }),

    searchRoute<ContactRow>({
      path: '/contacts/search',
      permission: 'contacts:read',
      summary: 'Search contacts with the filter language (erased contacts never match; archived ones do unless the query says archived = false)',
      item: contactSchema,
      spec: contactList,
      querySchema: {
        type: 'object',
        description:
          'A condition `{field, operator, value}` or a group `{operator: "AND"|"OR", value: [conditions or groups]}`: at most 2 levels of groups, 1 to 15 entries per group. See docs/api-guide.md (Search) for the fields and their operators.',
      },
      language: contactSearch,
      lookup: ownerLookup(deps),
      query: ({ principal }, where) => contactsOf(db, principal.tenantId).andWhereRaw(where.sql, where.bindings as never[]),
      render: (row) => row,
      finish,
    }),

    // ?as_of_seq=N: the contact as it was right after event N (contacts.history.ts).
    withAsOf(
      route({
        method: 'get',
        path: '/contacts/:id',
        permission: 'contacts:read',
        summary: 'Get a contact',
        responses: { 200: contactSchema, ...gone },
        async handle(call) {
          return { status: 200, body: await current(call.principal.tenantId, call.params.id) };
        },
      }),
      deps.store,
      'contact',
      ({ principal, params }, asOfSeq) => pastContact(deps, principal.tenantId, params.id, asOfSeq),
    ),

    commandRoute(deps, {
      method: 'put',
      path: '/contacts/:id',
      permission: 'contacts:write',
      summary: 'Change a contact',
      responses: gone,
      body: ContactChanges,
      command: (call) => updateContact({ id: call.params.id, fields: call.body }),
      answer: { status: 200, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, call.params.id, tx) },
    }),

    archiveRoute(true),
    archiveRoute(false),

    commandRoute(deps, {
      method: 'post',
      path: '/contacts/:id/companies',
      permission: 'contacts:write',
      summary: 'Add a contact to a company',
      responses: gone,
      body: CompanyRef,
      command: (call) => attachCompany({ id: call.params.id, companyId: call.body.company_id }),
      answer: { status: 200, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, call.params.id, tx) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/contacts/:id/companies/:company_id',
      permission: 'contacts:write',
      summary: 'Remove a contact from a company',
      responses: gone,
      command: (call) => detachCompany({ id: call.params.id, companyId: call.params.company_id }),
      answer: { status: 200, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, call.params.id, tx) },
    }),

    // Tags are deltas, as on conversations: one on, one off, never a replace-the-list call.
    commandRoute(deps, {
      method: 'post',
      path: '/contacts/:id/tags',
      permission: 'contacts:write',
      summary: 'Tag a contact (tagging them twice changes nothing)',
      responses: gone,
      body: TagRef,
      command: (call) => tagContact({ id: call.params.id, tagId: call.body.tag_id, add: true }),
      answer: { status: 200, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, call.params.id, tx) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/contacts/:id/tags/:tag_id',
      permission: 'contacts:write',
      summary: 'Take a tag off a contact (taking off one they lack changes nothing)',
      responses: gone,
      command: (call) => tagContact({ id: call.params.id, tagId: call.params.tag_id, add: false }),
      answer: { status: 200, schema: contactSchema, read: (tx, events, call) => current(call.principal.tenantId, call.params.id, tx) },
    }),

    // Here rather than in companies: the contacts capability reads companies, not the other way round.
    listRoute<ContactRow, Pick<ListFilters, 'archived'>, '/companies/:id/contacts'>({
      path: '/companies/:id/contacts',
      permission: 'contacts:read',
      summary: "List a company's contacts",
      item: contactSchema,
      spec: contactList,
      filters: { archived: archivedFilter },
      before: async ({ principal, params }) => {
        if (!(await findCompany(db, principal.tenantId, params.id))) throw new NotFound('company');
      },
      query: ({ principal, params, query }) => {
        const q = contactsOf(db, principal.tenantId).whereIn('id', contactIdsOfCompany(db, principal.tenantId, params.id));
        return query.archived ? q.whereNotNull('archived_at') : q.whereNull('archived_at');
      },
      render: (row) => row,
      finish,
    }),
  ];
}
