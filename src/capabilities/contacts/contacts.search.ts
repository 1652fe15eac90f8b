// The searchable fields of contacts (POST /api/contacts/search): declared here
// because this capability owns the tables they read (contacts and
// contact_companies). The language itself is src/platform/query/filter.ts.
import { columnField, customAttributesField, uuidSetField, type FieldDef, type FilterLanguage } from '../../platform/query/filter.js';

const ids = ['=', '!=', 'IN', 'NIN'] as const;
const texts = [...ids, '~', '^', '$'] as const;

/** In a company (its `id`); `= null`: in no company. */
const companyId: FieldDef = {
  name: 'company_id',
  kind: 'uuid',
  operators: ids,
  nullable: true,
  description: "A company's id (the service's, as POST /api/contacts/{id}/companies takes it); null: in no company.",
  sql(op, value) {
    const of = 'SELECT 1 FROM contact_companies cc WHERE cc.tenant_id = contacts.tenant_id AND cc.contact_id = contacts.id';
    if (value === null) return { sql: `${op === '=' ? 'NOT ' : ''}EXISTS (${of})`, bindings: [] };
    const list = Array.isArray(value) ? value : [value];
    const any = `EXISTS (${of} AND cc.company_id = ANY(?::uuid[]))`;
    return { sql: op === '=' || op === 'IN' ? any : `NOT ${any}`, bindings: [list] };
  },
};

/** `custom_attributes.<key>`: a contact's custom attribute by key (any key a contact may hold). */
const customAttribute = customAttributesField({
  column: 'contacts.custom_attributes',
  key: /^[A-Za-z0-9_][A-Za-z0-9_ .-]{0,99}$/,
  description: 'A custom attribute by key (string, number or boolean); null: the key is absent.',
});

export const contactSearch: FilterLanguage = {
  name: 'contacts',
  fields: [
    columnField({
      name: 'email',
      column: 'contacts.email',
      kind: 'text',
      operators: texts,
      nullable: true,
      cast: 'text',
      caseless: true,
      description: 'Compared ignoring case.',
    }),
    columnField({ name: 'name', column: 'contacts.name', kind: 'text', operators: texts, nullable: true, cast: 'text' }),
    columnField({ name: 'external_id', column: 'contacts.external_id', kind: 'text', operators: texts, nullable: true, cast: 'text' }),
    companyId,
    uuidSetField({ name: 'tag_ids', column: 'contacts.tag_ids', description: '= has the tag, IN has any of them; null: untagged' }),
    columnField({ name: 'archived', column: '(contacts.archived_at IS NOT NULL)', kind: 'boolean', operators: ['=', '!='], cast: 'boolean' }),
    columnField({ name: 'created_at', column: 'contacts.created_at', kind: 'instant', operators: ['=', '!=', '<', '<=', '>', '>='], cast: 'timestamptz' }),
    columnField({ name: 'updated_at', column: 'contacts.updated_at', kind: 'instant', operators: ['=', '!=', '<', '<=', '>', '>='], cast: 'timestamptz' }),
    customAttribute,
  ],
};
