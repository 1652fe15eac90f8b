// Pure contact rules, one decider for every way a contact is made or changed:
// the contacts API and the contacts found or filled when a conversation starts (inbound
// posts, teammate-started conversations). An e-mail (case-insensitive) and an
// external_id name at most one contact of a workspace; custom attributes merge
// by key and a null removes one; an erased contact refuses every change (410).
import { AppError, BadRequest, Gone, NotFound, Unprocessable } from '../../platform/errors.js';
import { taggingChanges, type TagView } from '../tags/index.js';
import { mergeAttributes, sameAttributes, type CustomAttributeValues } from '../companies/index.js';
import type { ContactEvent } from './contacts.events.js';

export interface ContactInput {
  external_id?: string;
  email?: string;
  name?: string;
  phone?: string | null;
}

/** A contact as finding or filling it from a conversation needs it. */
export interface ContactView {
  id: string;
  external_id: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  /** identity fields of the input that another contact already holds: never filled in here */
  taken?: readonly ('email' | 'external_id')[];
  /** found by id and erased: nothing new may be filed under it */
  erased?: boolean;
}

/**
 * What finding a contact by this assertion read, and filling it may write, as
 * group-commit keys (CommandSpec.keys): the asserted identities and the contact
 * found. `null` for an e-mail outside ASCII: Postgres's lower() and this
 * process's may fold it differently, so its key could miss a clash.
 */
export function contactKeys(by: ContactInput & { id?: string | null }, found: ContactView | null): string[] | null {
  const keys: string[] = [];
  if (by.id) keys.push(`contact:${by.id}`);
  if (found) keys.push(`contact:${found.id}`);
  if (by.external_id) keys.push(`contact:external_id:${by.external_id}`);
  if (by.email) {
    if (!/^[\x20-\x7e]*$/.test(by.email)) return null;
    keys.push(`contact:email:${by.email.toLowerCase()}`);
  }
  return keys;
}

/** A contact as the contacts API's commands need it. */
export interface ContactState {
  id: string;
  externalId: string | null;
  email: string | null;
  name: string | null;
  phone: string | null;
  customAttributes: CustomAttributeValues;
  archived: boolean;
  erased: boolean;
  companyIds: readonly string[];
  tagIds: readonly string[];
  /** merged into this contact (contact.merged): it answers 410 contact_merged */
  mergedInto?: string | null;
}

/** The fields the API sets; in an update, null clears a field and a null attribute removes its key. */
export interface ContactFields {
  external_id?: string | null;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  custom_attributes?: Record<string, string | number | boolean | null>;
}

/** Another contact holding an e-mail or external_id a command asks for. */
export interface Holder {
  field: 'email' | 'external_id';
  id: string;
}

/** Most companies one contact may belong to (a contact's answer lists them all). */
export const MAX_COMPANIES_PER_CONTACT = 100;

const FIELDS = ['external_id', 'email', 'name', 'phone'] as const;

export const contactErased = (id: string) => new Gone('contact_erased', `The contact ${id} was erased; its data is gone.`);

/** A contact merged into another: gone, with the survivor as its canonical link (as Intercom answers a merged lead). */
export const contactMerged = (id: string, into: string) =>
  new AppError(410, 'contact_merged', `The contact ${id} was merged into ${into}: use that one.`, undefined, [], {
    Link: `</api/contacts/${into}>; rel="canonical"`,
  });

const contactExists = (h: Holder) =>
  new AppError(409, 'contact_exists', `A contact with this ${h.field === 'email' ? 'e-mail' : 'external_id'} exists: ${h.id}.`, h.field);

const identityRequired = () => new BadRequest('identity_required', 'A contact needs an email or an external_id (or both).', 'email');

/** The contact, when it exists and is not erased. */
function live(id: string, c: ContactState | null): ContactState {
  if (!c) throw new NotFound('contact');
  if (c.erased) throw contactErased(c.id);
  if (c.mergedInto) throw contactMerged(c.id, c.mergedInto);
  return c;
}

const contactEvent = <T extends ContactEvent['type']>(type: T, id: string, payload: Extract<ContactEvent, { type: T }>['payload']): ContactEvent =>
  ({ type, aggregate_type: 'contact', aggregate_id: id, payload }) as ContactEvent;

/**
 * Finds or fills a contact from identity the caller asserts (spec 2.6: never
 * verified). An existing contact only gets its blank fields filled: an
 * unverified assertion must not overwrite what is already known, nor claim an
 * e-mail or external_id another contact holds.
 */
export function decideFindOrFillContact(
  newId: string,
  input: ContactInput,
  found: ContactView | null,
  channelId: string | null,
): { contactId: string; events: ContactEvent[] } {
  if (!found) {
    return {
      contactId: newId,
      events: [
        contactEvent('contact.created', newId, {
          contact_id: newId,
          external_id: input.external_id ?? null,
          email: input.email ?? null,
          name: input.name ?? null,
          phone: input.phone ?? null,
          channel_id: channelId,
        }),
      ],
    };
  }
  const changes: Record<string, string> = {};
  for (const f of FIELDS) {
    const v = input[f];
    if (typeof v === 'string' && v !== '' && (found[f] === null || found[f] === '') && !found.taken?.includes(f as 'email' | 'external_id')) changes[f] = v;
  }
  return {
    contactId: found.id,
    events: Object.keys(changes).length ? [contactEvent('contact.updated', found.id, { contact_id: found.id, ...changes })] : [],
  };
}

/** Creates a contact through the API: an e-mail or external_id another contact holds is a 409 naming it. */
export function decideCreateContact(cmd: { id: string; fields: ContactFields }, s: { holder: Holder | null }): ContactEvent[] {
  const f = cmd.fields;
  if (!f.email && !f.external_id) throw identityRequired();
  if (s.holder) throw contactExists(s.holder);
  return [
    contactEvent('contact.created', cmd.id, {
      contact_id: cmd.id,
      external_id: f.external_id ?? null,
      email: f.email ?? null,
      name: f.name ?? null,
      phone: f.phone ?? null,
      custom_attributes: mergeAttributes({}, f.custom_attributes ?? {}),
      channel_id: null,
    }),
  ];
}

/** A partial update: records only what changes; the contact must keep an e-mail or an external_id. */
export function decideUpdateContact(cmd: { id: string; fields: ContactFields }, s: { contact: ContactState | null; holder: Holder | null }): ContactEvent[] {
  const c = live(cmd.id, s.contact);
  const f = cmd.fields;
  const changed: Omit<Extract<ContactEvent, { type: 'contact.updated' }>['payload'], 'contact_id'> = {};
  if (f.external_id !== undefined && f.external_id !== c.externalId) changed.external_id = f.external_id;
  if (f.email !== undefined && f.email !== c.email) changed.email = f.email;
  if (f.name !== undefined && f.name !== c.name) changed.name = f.name;
  if (f.phone !== undefined && f.phone !== c.phone) changed.phone = f.phone;
  if (f.custom_attributes !== undefined) {
    const merged = mergeAttributes(c.customAttributes, f.custom_attributes);
    if (!sameAttributes(merged, c.customAttributes)) changed.custom_attributes = merged;
  }
  const email = changed.email !== undefined ? changed.email : c.email;
  const externalId = changed.external_id !== undefined ? changed.external_id : c.externalId;
  if (!email && !externalId) throw identityRequired();
  if (s.holder && s.holder.id !== c.id) throw contactExists(s.holder);
  return Object.keys(changed).length ? [contactEvent('contact.updated', c.id, { contact_id: c.id, ...changed })] : [];
}

/** Archiving an archived contact (or unarchiving an active one) changes nothing and appends nothing. */
export function decideArchiveContact(cmd: { id: string; archived: boolean }, c: ContactState | null): ContactEvent[] {
  const contact = live(cmd.id, c);
  if (contact.archived === cmd.archived) return [];
  return [contactEvent(cmd.archived ? 'contact.archived' : 'contact.unarchived', contact.id, { contact_id: contact.id })];
}

/** Attaching a company the contact belongs to already appends nothing. */
export function decideAttachCompany(cmd: { id: string; companyId: string }, s: { contact: ContactState | null; companyExists: boolean }): ContactEvent[] {
  const c = live(cmd.id, s.contact);
  if (!s.companyExists) throw new NotFound('company');
  if (c.companyIds.includes(cmd.companyId)) return [];
  if (c.companyIds.length >= MAX_COMPANIES_PER_CONTACT) {
    throw new Unprocessable('too_many_companies', `A contact belongs to at most ${MAX_COMPANIES_PER_CONTACT} companies.`, 'company_id');
  }
  return [contactEvent('contact.company_attached', c.id, { contact_id: c.id, company_id: cmd.companyId })];
}

/** Detaching a company the contact does not belong to appends nothing; a company that does not exist is a 404. */
export function decideDetachCompany(cmd: { id: string; companyId: string }, s: { contact: ContactState | null; companyExists: boolean }): ContactEvent[] {
  const c = live(cmd.id, s.contact);
  if (!c.companyIds.includes(cmd.companyId)) {
    if (!s.companyExists) throw new NotFound('company');
    return [];
  }
  return [contactEvent('contact.company_detached', c.id, { contact_id: c.id, company_id: cmd.companyId })];
}

/** Tags a contact or takes a tag off: an idempotent delta (see taggingChanges). Erased contacts answer 410. */
export function decideTagContact(cmd: { id: string; tagId: string; add: boolean }, s: { contact: ContactState | null; tag: TagView | null }): ContactEvent[] {
  const c = live(cmd.id, s.contact);
  if (!taggingChanges(c.tagIds, cmd.tagId, s.tag, cmd.add)) return [];
  return [contactEvent(cmd.add ? 'contact.tagged' : 'contact.untagged', c.id, { contact_id: c.id, tag_id: cmd.tagId, name: s.tag!.name })];
}

// ---- merging ----

/** Companies and tags one merge may move (an event each, within MAX_EVENTS_PER_COMMAND with the others). */
export const MERGE_MAX_MOVED = 200;

/** The identity fields a survivor takes from the contact merged into it when it has none of its own. */
const FILLED = [
  ['externalId', 'external_id'],
  ['email', 'email'],
  ['name', 'name'],
  ['phone', 'phone'],
] as const;

/**
 * Merges a contact into another, the survivor (as Intercom merges a lead into a user, Zendesk an end user into
 * another). The survivor keeps what it has: of identifiers (external_id, email, name, phone) it takes what it lacks,
 * of custom attributes the keys it lacks; it gets every company and tag of the merged one it does not have, and its
 * conversations. The merged contact keeps its row, pointing at the survivor: its other identifiers still find it,
 * and through it the survivor.
 */
export function decideMergeContact(
  cmd: { sourceId: string; targetId: string },
  s: { source: ContactState | null; target: ContactState | null; conversationIds: readonly string[]; tagNames: ReadonlyMap<string, string> },
): ContactEvent[] {
  const source = live(cmd.sourceId, s.source);
  if (cmd.targetId.toLowerCase() === source.id) throw new BadRequest('invalid_field', 'A contact cannot be merged into itself.', 'into');
  const target = s.target;
  if (!target) throw new BadRequest('unknown_contact', 'into names no contact of this workspace.', 'into');
  if (target.erased) throw new Unprocessable('merge_target_erased', 'into was erased: nothing can be merged into it.', 'into');
  if (target.mergedInto) throw new Unprocessable('merge_target_merged', `into was itself merged into ${target.mergedInto}: merge into that one.`, 'into');
  const companies = source.companyIds.filter((c) => !target.companyIds.includes(c));
  if (target.companyIds.length + companies.length > MAX_COMPANIES_PER_CONTACT)
    throw new Unprocessable(
      'too_many_companies',
      `Merged, the contact would be in more than ${MAX_COMPANIES_PER_CONTACT} companies: detach some first.`,
      'into',
    );
  const tags = source.tagIds.filter((t) => !target.tagIds.includes(t) && s.tagNames.has(t));
  // One event per company and tag that goes over, and the merge's own: within what one command may append.
  if (companies.length + tags.length > MERGE_MAX_MOVED)
    throw new Unprocessable(
      'merge_too_large',
      `The merge would move ${companies.length} companies and ${tags.length} tags; at most ${MERGE_MAX_MOVED} together.`,
      'into',
    );
  const fills: Record<string, string> = {};
  for (const [from, to] of FILLED) if (target[from] === null && source[from] !== null) fills[to] = source[from];
  const attributes = { ...source.customAttributes, ...target.customAttributes };
  const moreAttributes = Object.keys(attributes).length > Object.keys(target.customAttributes).length;
  const updated = { ...fills, ...(moreAttributes ? { custom_attributes: attributes } : {}) };
  return [
    ...(Object.keys(updated).length ? [contactEvent('contact.updated', target.id, { contact_id: target.id, ...updated })] : []),
    ...companies.map((companyId) => contactEvent('contact.company_attached', target.id, { contact_id: target.id, company_id: companyId })),
    ...tags.map((tagId) => contactEvent('contact.tagged', target.id, { contact_id: target.id, tag_id: tagId, name: s.tagNames.get(tagId)! })),
    contactEvent('contact.merged', target.id, {
      contact_id: target.id,
      merged_id: source.id,
      conversation_ids: [...s.conversationIds],
      external_id_moved: fills.external_id !== undefined,
    }),
  ];
}
