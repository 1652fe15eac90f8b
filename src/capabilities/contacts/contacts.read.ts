import type { Knex } from 'knex';
import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { arrayOf, bool, constant, dateTime, nullable, object, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import { batchedOn } from '../../platform/db/batched.js';
import { PLANNED_PER_CALL, WORKSPACE_PARAM } from '../../platform/db/prepared.js';
import { checkQuery, compileQuery } from '../../platform/query/filter.js';
import { contactSearch } from './contacts.search.js';
import { companiesByIds, customAttributeValuesSchema, type CustomAttributeValues } from '../companies/index.js';
import { tagRefSchema, tagRefsSql, type TagRef } from '../tags/index.js';
import type { ContactInput, ContactState, ContactView, Holder } from './contacts.decider.js';

const COLS = ['id', 'external_id', 'email', 'name', 'phone', 'merged_into'];

export interface ContactRow {
  tenant_id: string;
  id: string;
  external_id: string | null;
  channel_id: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  custom_attributes: CustomAttributeValues | null;
  archived_at: Date | null;
  erased_at: Date | null;
  /** merged into this contact (contact.merged): it answers 410 naming it */
  merged_into: string | null;
  tag_ids: string[];
  /** the tags by id and current name (tagRefsSql); every query that renders a contact selects it */
  tags: TagRef[];
  created_at: Date;
  updated_at: Date;
}

/** Case-insensitive, on the stored lower-cased column: the only form row-level security lets use an index (migration 026). */
const EMAIL_IS = 'email_lower = lower(?)';
export const byEmail = (q: Knex.QueryBuilder, email: string) => q.whereRaw(EMAIL_IS, [email]);

/** Every contact row of the workspace, erased ones included (they answer 410). */
export const allContactsOf = (db: Db, tenantId: string) => db('contacts').where({ tenant_id: tenantId });

/** Contact rows as answers render them: with their tags by name. */
export const contactRowsOf = (db: Db, tenantId: string) => allContactsOf(db, tenantId).select('contacts.*', db.raw(`${tagRefsSql('contacts')} AS tags`));

/** The contacts a list shows: never the erased. */
export const contactsOf = (db: Db, tenantId: string) => contactRowsOf(db, tenantId).whereNull('erased_at');

/** Ids of the contacts that belong to a company (a subquery for lists). */
export const contactIdsOfCompany = (db: Db, tenantId: string, companyId: string) =>
  db('contact_companies').select('contact_id').where({ tenant_id: tenantId, company_id: companyId });

const BY_EXTERNAL_ID_AND_EMAIL = `(SELECT ${COLS.join(', ')}, 'external_id' AS via FROM contacts WHERE tenant_id = ? AND external_id = ? LIMIT 1)
  UNION ALL
  (SELECT ${COLS.join(', ')}, 'email' AS via FROM contacts WHERE tenant_id = ? AND ${EMAIL_IS} AND external_id IS DISTINCT FROM ? ORDER BY created_at LIMIT 1)`;

/**
 * The same for many pairs at once, each row tagged with its pair's position (1-based). Exported for its plan's test.
 * Planned per call: a generic plan made while the workspace was small scanned the workspace for each pair. The
 * workspace as WORKSPACE_PARAM: as a constant, each pair's lookup read a workspace the statistics did not count
 * whole (111,123 rows for 40 keys in test/platform/planned-per-call.e2e.test.ts).
 */
export const BY_EXTERNAL_IDS_AND_EMAILS = `${PLANNED_PER_CALL}SELECT x.i::int AS i, c.*, 'external_id' AS via
    FROM unnest(?::text[]) WITH ORDINALITY AS x(external_id, i),
    LATERAL (SELECT ${COLS.join(', ')} FROM contacts WHERE tenant_id = ${WORKSPACE_PARAM} AND external_id = x.external_id LIMIT 1) c
  UNION ALL
  SELECT x.i::int, c.*, 'email'
    FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS x(external_id, email, i),
    LATERAL (SELECT ${COLS.join(', ')} FROM contacts WHERE tenant_id = ${WORKSPACE_PARAM} AND email_lower = lower(x.email) AND external_id IS DISTINCT FROM x.external_id ORDER BY created_at LIMIT 1) c`;

type Found = ContactView & { via: 'external_id' | 'email' };
interface Asserted {
  external_id: string;
  email: string;
}

/**
 * Per asserted pair, the contact holding the external_id and, apart from it, the
 * oldest holding the e-mail. Batched per database handle (platform/db/batched.ts):
 * a group commit loads its commands together, on its transaction, and their
 * lookups go as one statement instead of one each. One pair goes by scalars, which
 * keeps a generic plan.
 */
const byExternalIdAndEmail = batchedOn<Db, Asserted, Found[]>(
  async (db, tenant, pairs) => {
    if (pairs.length === 1) {
      const [p] = pairs;
      return [(await db.raw(BY_EXTERNAL_ID_AND_EMAIL, [tenant, p!.external_id, tenant, p!.email, p!.external_id])).rows as Found[]];
    }
    const ids = pairs.map((p) => p.external_id);
    const res = await db.raw(BY_EXTERNAL_IDS_AND_EMAILS, [ids, tenant, ids, pairs.map((p) => p.email), tenant] as unknown as Knex.RawBinding[]);
    const out = pairs.map((): Found[] => []);
    for (const { i, ...row } of res.rows as (Found & { i: number })[]) out[i - 1]!.push(row as Found);
    return out;
  },
  { gather: true },
);

/** How many merges a lookup follows to the surviving contact (a chain is refused longer by the merge itself). */
const MAX_MERGE_HOPS = 10;

/**
 * By id; else by external_id, then e-mail (spec 2.6: the caller's assertion picks the contact). A contact merged
 * into another stands for the survivor (and so on along a chain of merges): what is filed for it lands there.
 */
export async function findContact(db: Db, tenantId: string, by: ContactInput & { id?: string }): Promise<ContactView | null> {
  let found = await findAsserted(db, tenantId, by);
  for (let hops = 0; found?.merged_into && hops < MAX_MERGE_HOPS; hops++) found = await findAsserted(db, tenantId, { id: found.merged_into });
  if (!found) return null;
  const { merged_into: _m, ...view } = found;
  return view;
}

type FoundContact = ContactView & { merged_into?: string | null };

async function findAsserted(db: Db, tenantId: string, by: ContactInput & { id?: string }): Promise<FoundContact | null> {
  if (by.id) {
    if (!isUuid(by.id)) return null;
    const row = await allContactsOf(db, tenantId)
      .andWhere({ id: by.id })
      .first([...COLS, 'erased_at']);
    if (!row) return null;
    const { erased_at, ...view } = row as ContactView & { erased_at: Date | null };
    return erased_at ? { ...view, erased: true } : view;
  }
  if (by.external_id && by.email) {
    // Both asserted (every inbound post, most starts): one round trip, written out rather than built, for the contact
    // holding the external_id and, apart from it, the oldest holding the e-mail.
    const rows = await byExternalIdAndEmail(db, tenantId, { external_id: by.external_id, email: by.email });
    const strip = ({ via: _via, ...view }: ContactView & { via: string }): ContactView => view;
    const found = rows.find((r) => r.via === 'external_id');
    const holder = rows.find((r) => r.via === 'email');
    // Filling a blank e-mail must not give this contact one that another contact holds.
    if (found) return !found.email && holder ? { ...strip(found), taken: ['email'] } : strip(found);
    return holder ? strip(holder) : null;
  }
  if (by.external_id) {
    const found: ContactView | undefined = await allContactsOf(db, tenantId).andWhere({ external_id: by.external_id }).first(COLS);
    if (found) {
      // Filling a blank e-mail must not give this contact one that another contact holds.
      if (by.email && !found.email && (await findHolder(db, tenantId, { email: by.email }, found.id))) return { ...found, taken: ['email'] };
      return found;
    }
  }
  if (by.email) {
    const found = await byEmail(allContactsOf(db, tenantId), by.email).orderBy('created_at').first(COLS);
    if (found) return found;
  }
  return null;
}

/** The contacts merged into this one, and into those along the chain, not erased (what its erasure takes with it). */
export async function contactsMergedInto(db: Db, tenantId: string, id: string): Promise<string[]> {
  if (!isUuid(id)) return [];
  const res = await db.raw(
    `WITH RECURSIVE merged(id) AS (
       SELECT id FROM contacts WHERE tenant_id = ?::uuid AND merged_into = ?::uuid
       UNION
       SELECT c.id FROM contacts c JOIN merged m ON c.tenant_id = ?::uuid AND c.merged_into = m.id
     )
     SELECT m.id FROM merged m JOIN contacts c ON c.tenant_id = ?::uuid AND c.id = m.id WHERE c.erased_at IS NULL ORDER BY m.id`,
    [tenantId, id, tenantId, tenantId],
  );
  return (res.rows as { id: string }[]).map((r) => r.id);
}

/** Another contact (not `except`) holding this external_id or e-mail (case-insensitive), external_id first. */
export async function findHolder(
  db: Db,
  tenantId: string,
  by: { email?: string | null; external_id?: string | null },
  except?: string,
): Promise<Holder | null> {
  const others = () => (except ? allContactsOf(db, tenantId).andWhereNot({ id: except }) : allContactsOf(db, tenantId));
  if (by.external_id) {
    const h = await others().andWhere({ external_id: by.external_id }).first('id');
    if (h) return { field: 'external_id', id: h.id };
  }
  if (by.email) {
    const h = await byEmail(others(), by.email).orderBy('created_at').first('id');
    if (h) return { field: 'email', id: h.id };
  }
  return null;
}

/** A contact row by id, erased or not. */
export async function findContactRow(db: Db, tenantId: string, id: string): Promise<ContactRow | undefined> {
  return isUuid(id) ? contactRowsOf(db, tenantId).andWhere({ id }).first() : undefined;
}

/** Company ids of a contact, in the order it joined them. */
export async function companyIdsOf(db: Db, tenantId: string, contactId: string): Promise<string[]> {
  const rows: { company_id: string }[] = await db('contact_companies')
    .where({ tenant_id: tenantId, contact_id: contactId })
    .orderBy(['attached_at', 'company_id'])
    .select('company_id');
  return rows.map((r) => r.company_id);
}

/** The contacts carrying a tag, by id (a tag's deletion names them). */
export async function contactIdsTagged(db: Db, tenantId: string, tagId: string): Promise<string[]> {
  return allContactsOf(db, tenantId).whereRaw('tag_ids @> ARRAY[?]::uuid[]', [tagId]).orderBy('id').pluck('id');
}

/** What the contacts API's commands decide on. */
export async function contactState(db: Db, tenantId: string, id: string): Promise<ContactState | null> {
  const c = await findContactRow(db, tenantId, id);
  if (!c) return null;
  return {
    id: c.id,
    externalId: c.external_id,
    email: c.email,
    name: c.name,
    phone: c.phone,
    customAttributes: c.custom_attributes ?? {},
    archived: c.archived_at !== null,
    erased: c.erased_at !== null,
    companyIds: c.erased_at ? [] : await companyIdsOf(db, tenantId, c.id),
    tagIds: c.tag_ids,
    mergedInto: c.merged_into ?? null,
  };
}

/** The companies of each contact, in the order they joined (one query for the links, one for the companies). */
export async function companiesOfContacts(db: Db, tenantId: string, contactIds: readonly string[]): Promise<Map<string, CompanyRef[]>> {
  const out = new Map<string, CompanyRef[]>(contactIds.map((id) => [id, []]));
  if (contactIds.length === 0) return out;
  const links: { contact_id: string; company_id: string }[] = await db('contact_companies')
    .where({ tenant_id: tenantId })
    .whereIn('contact_id', [...new Set(contactIds)])
    .orderBy(['contact_id', 'attached_at', 'company_id'])
    .select('contact_id', 'company_id');
  const companies = new Map(
    (
      await companiesByIds(
        db,
        tenantId,
        links.map((l) => l.company_id),
      )
    ).map((c) => [c.id, c]),
  );
  for (const l of links) {
    const c = companies.get(l.company_id);
    if (c) out.get(l.contact_id)!.push({ type: 'company', id: c.id, company_id: c.company_id, name: c.name });
  }
  return out;
}

export const contactList: ListSpec = {
  itemType: 'contact',
  sorts: {
    created_at: { column: 'created_at', kind: 'timestamp' },
    updated_at: { column: 'updated_at', kind: 'timestamp' },
  },
  defaultSort: 'created_at',
  defaultOrder: 'desc',
};

export const renderContact = (c: ContactRow, companies: CompanyRef[]): Contact => ({
  type: 'contact',
  id: c.id,
  external_id: c.external_id,
  email: c.email,
  name: c.name,
  phone: c.phone,
  custom_attributes: c.custom_attributes ?? {},
  companies,
  tags: c.tags,
  channel_id: c.channel_id,
  archived: c.archived_at !== null,
  archived_at: c.archived_at ? c.archived_at.toISOString() : null,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

/** Renders contacts with their companies. */
export async function renderContacts(db: Db, tenantId: string, rows: readonly ContactRow[]): Promise<Contact[]> {
  const companies = await companiesOfContacts(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => renderContact(r, companies.get(r.id) ?? []));
}

export const companyRefSchema = object({ type: constant('company'), id: uuid, company_id: str(), name: str() }, { title: 'CompanyRef' });
/** A company as a contact's answer names it. */
export type CompanyRef = Static<typeof companyRefSchema>;

export const contactSchema = object(
  {
    type: constant('contact'),
    id: uuid,
    external_id: nullable(str()),
    email: nullable(str()),
    name: nullable(str()),
    phone: nullable(str()),
    custom_attributes: customAttributeValuesSchema,
    companies: arrayOf(companyRefSchema, { description: 'The companies the contact belongs to, in the order it joined them.' }),
    tags: arrayOf(tagRefSchema, { description: 'Its tags by id and current name, by name.' }),
    channel_id: nullable(uuid, {
      description: 'The channel the contact was first seen on (inbound post or teammate-started conversation); null when created through the API.',
    }),
    archived: bool,
    archived_at: nullable(dateTime),
    created_at: dateTime,
    updated_at: dateTime,
  },
  { title: 'Contact' },
);
export type Contact = Static<typeof contactSchema>;
/** Whether a contact exists and when it was erased (erasure decides on this). */
export async function contactErasure(db: Db, tenantId: string, id: string): Promise<{ id: string; erased_at: Date | null; merged_into: string | null } | null> {
  if (!isUuid(id)) return null;
  return (await db('contacts').where({ tenant_id: tenantId, id }).first('id', 'erased_at', 'merged_into')) ?? null;
}

/** A contact as an outbound audience resolves it. */
export interface AudienceContact {
  id: string;
  archived: boolean;
  erased: boolean;
}

/**
 * The contacts an audience names, with whether each is archived or erased (for
 * the outbound capability, which records those as skipped): by ids (in the
 * order given, unknown ids left out), or every contact carrying any of the
 * tags (oldest first). At most `limit` rows.
 */
export async function audienceContacts(
  db: Db,
  tenantId: string,
  by: { ids: readonly string[] } | { tagIds: readonly string[] } | { query: unknown },
  limit: number,
): Promise<AudienceContact[]> {
  const cols = ['id', 'archived_at', 'erased_at'];
  const view = (r: { id: string; archived_at: Date | null; erased_at: Date | null }): AudienceContact => ({
    id: r.id,
    archived: r.archived_at !== null,
    erased: r.erased_at !== null,
  });
  if ('ids' in by) {
    const ids = by.ids.filter(isUuid);
    if (ids.length === 0) return [];
    const rows: { id: string; archived_at: Date | null; erased_at: Date | null }[] = await allContactsOf(db, tenantId).whereIn('id', ids).select(cols);
    const found = new Map(rows.map((r) => [r.id, view(r)]));
    return ids.flatMap((id) => found.get(id) ?? []).slice(0, limit);
  }
  if ('query' in by) {
    // The filter language as POST /api/contacts/search reads it: erased contacts never match; archived ones do
    // (the caller records them as skipped) unless the query says archived = false.
    const where = await compileQuery(contactSearch, by.query, { tenantId, purpose: 'list' }, 'audience.query');
    const rows = await contactsOf(db, tenantId)
      .andWhereRaw(where.sql, where.bindings as never[])
      .orderBy(['created_at', 'id'])
      .limit(limit)
      .select(cols);
    return rows.map(view);
  }
  if (by.tagIds.length === 0) return [];
  const rows = await allContactsOf(db, tenantId)
    .whereRaw('tag_ids && ?::uuid[]', [`{${by.tagIds.filter(isUuid).join(',')}}`])
    .orderBy(['created_at', 'id'])
    .limit(limit)
    .select(cols);
  return rows.map(view);
}

/** Checks a contacts filter-language query (400 invalid_query, each problem named under `path`), as an audience is stored. */
export function checkContactQuery(raw: unknown, path: string): void {
  checkQuery(contactSearch, raw, path);
}
