import type { CommandSpec } from '../../commands/command.js';
import { findCompany } from '../companies/index.js';
import { findTag, tagView, type TagView } from '../tags/index.js';
import {
  decideArchiveContact,
  decideAttachCompany,
  decideCreateContact,
  decideDetachCompany,
  decideTagContact,
  decideUpdateContact,
  type ContactFields,
  type ContactState,
  type Holder,
} from './contacts.decider.js';
import type { ContactEvent } from './contacts.events.js';
import { contactState, findHolder } from './contacts.read.js';

export const createContact = (input: { id: string; fields: ContactFields }): CommandSpec<{ holder: Holder | null }, ContactEvent> => ({
  name: 'CreateContact',
  load: async (db, ctx) => ({ holder: await findHolder(db, ctx.tenantId, { email: input.fields.email, external_id: input.fields.external_id }) }),
  decide: (s) => decideCreateContact(input, s),
});

export const updateContact = (input: {
  id: string;
  fields: ContactFields;
}): CommandSpec<{ contact: ContactState | null; holder: Holder | null }, ContactEvent> => ({
  name: 'UpdateContact',
  load: async (db, ctx) => {
    const contact = await contactState(db, ctx.tenantId, input.id);
    if (!contact) return { contact, holder: null };
    // Only an e-mail or external_id this update changes can clash with another contact.
    const { email, external_id } = input.fields;
    const asked = {
      email: email && email.toLowerCase() !== contact.email?.toLowerCase() ? email : null,
      external_id: external_id && external_id !== contact.externalId ? external_id : null,
    };
    return { contact, holder: await findHolder(db, ctx.tenantId, asked, contact.id) };
  },
  decide: (s) => decideUpdateContact(input, s),
});

export const archiveContact = (input: { id: string; archived: boolean }): CommandSpec<ContactState | null, ContactEvent> => ({
  name: input.archived ? 'ArchiveContact' : 'UnarchiveContact',
  load: (db, ctx) => contactState(db, ctx.tenantId, input.id),
  decide: (c) => decideArchiveContact(input, c),
});

type Membership = { contact: ContactState | null; companyExists: boolean };

const membership =
  (input: { id: string; companyId: string }): CommandSpec<Membership, ContactEvent>['load'] =>
  async (db, ctx) => {
    const [contact, company] = await Promise.all([contactState(db, ctx.tenantId, input.id), findCompany(db, ctx.tenantId, input.companyId)]);
    return { contact, companyExists: company !== undefined };
  };

export const attachCompany = (input: { id: string; companyId: string }): CommandSpec<Membership, ContactEvent> => ({
  name: 'AttachCompany',
  load: membership(input),
  decide: (s) => decideAttachCompany(input, s),
});

export const detachCompany = (input: { id: string; companyId: string }): CommandSpec<Membership, ContactEvent> => ({
  name: 'DetachCompany',
  load: membership(input),
  decide: (s) => decideDetachCompany(input, s),
});

/** Tags a contact (add) or takes a tag off: a delta, so concurrent taggers never undo each other. */
export const tagContact = (input: {
  id: string;
  tagId: string;
  add: boolean;
}): CommandSpec<{ contact: ContactState | null; tag: TagView | null }, ContactEvent> => ({
  name: input.add ? 'TagContact' : 'UntagContact',
  load: async (db, ctx) => ({ contact: await contactState(db, ctx.tenantId, input.id), tag: tagView(await findTag(db, ctx.tenantId, input.tagId)) }),
  decide: (s) => decideTagContact(input, s),
});
