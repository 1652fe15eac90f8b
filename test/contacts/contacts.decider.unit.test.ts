// Contact rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { expect } from 'chai';
import {
  decideArchiveContact,
  contactKeys,
  decideAttachCompany,
  decideCreateContact,
  decideDetachCompany,
  decideFindOrFillContact,
  decideTagContact,
  decideUpdateContact,
  type ContactState,
} from '../../src/capabilities/contacts/contacts.decider.js';
import { decider } from '../support/decider-spec.js';

const ann: ContactState = {
  id: 'k1',
  externalId: 'x1',
  email: 'ann@x.io',
  name: 'Ann',
  phone: null,
  customAttributes: { tier: 'a', seats: 1 },
  archived: false,
  erased: false,
  companyIds: ['co1'],
  tagIds: ['t1'],
};

describe('contacts decider (unit)', () => {
  it('a contact is created with an e-mail or an external_id, never one another contact holds', () => {
    decider(decideCreateContact)
      .given({ holder: null })
      .when({ id: 'k2', fields: { email: 'b@x.io' } })
      .then({ type: 'contact.created', payload: { contact_id: 'k2', email: 'b@x.io', external_id: null, custom_attributes: {}, channel_id: null } });
    decider(decideCreateContact)
      .given({ holder: null })
      .when({ id: 'k2', fields: { name: 'B' } })
      .thenRefuses('identity_required');
    decider(decideCreateContact)
      .given({ holder: { field: 'email', id: 'k1' } })
      .when({ id: 'k2', fields: { email: 'ANN@x.io' } })
      .thenRefuses('contact_exists', 'email');
  });
  it('an update of a contact records only what changed, merges attributes (null removes) and keeps an identity', () => {
    const update = decider(decideUpdateContact);
    update
      .given({ contact: ann, holder: null })
      .when({ id: 'k1', fields: { name: 'Ann', custom_attributes: { seats: 2, tier: null } } })
      .then({ type: 'contact.updated', payload: { contact_id: 'k1', custom_attributes: { seats: 2 } } });
    update
      .given({ contact: ann, holder: null })
      .when({ id: 'k1', fields: { name: 'Ann', custom_attributes: { gone: null } } })
      .thenNothing();
    update
      .given({ contact: ann, holder: null })
      .when({ id: 'k1', fields: { email: null, external_id: null } })
      .thenRefuses('identity_required');
    update
      .given({ contact: ann, holder: { field: 'external_id', id: 'k9' } })
      .when({ id: 'k1', fields: { external_id: 'x9' } })
      .thenRefuses('contact_exists', 'external_id');
    update
      .given({ contact: { ...ann, erased: true }, holder: null })
      .when({ id: 'k1', fields: { name: 'B' } })
      .thenRefuses('contact_erased');
    update
      .given({ contact: null, holder: null })
      .when({ id: 'k1', fields: { name: 'B' } })
      .thenRefuses('not_found');
  });
  it('archiving, unarchiving and linking a company are no-ops when repeated', () => {
    decider(decideArchiveContact)
      .given(ann)
      .when({ id: 'k1', archived: true })
      .then({ type: 'contact.archived', payload: { contact_id: 'k1' } });
    decider(decideArchiveContact).given(ann).when({ id: 'k1', archived: false }).thenNothing();
    decider(decideArchiveContact)
      .given({ ...ann, archived: true })
      .when({ id: 'k1', archived: false })
      .then({ type: 'contact.unarchived' });
    decider(decideAttachCompany).given({ contact: ann, companyExists: true }).when({ id: 'k1', companyId: 'co1' }).thenNothing();
    decider(decideAttachCompany)
      .given({ contact: ann, companyExists: true })
      .when({ id: 'k1', companyId: 'co2' })
      .then({ type: 'contact.company_attached', payload: { company_id: 'co2' } });
    decider(decideAttachCompany).given({ contact: ann, companyExists: false }).when({ id: 'k1', companyId: 'co2' }).thenRefuses('not_found');
    decider(decideDetachCompany)
      .given({ contact: ann, companyExists: true })
      .when({ id: 'k1', companyId: 'co1' })
      .then({ type: 'contact.company_detached', payload: { company_id: 'co1' } });
    decider(decideDetachCompany).given({ contact: ann, companyExists: true }).when({ id: 'k1', companyId: 'co2' }).thenNothing();
  });

  it('tagging a contact is an idempotent delta: a tag it carries changes nothing, untagging takes it off; an erased contact is refused', () => {
    const vip = { id: 't1', name: 'VIP' };
    decider(decideTagContact).given({ contact: ann, tag: vip }).when({ id: 'k1', tagId: 't1', add: true }).thenNothing();
    decider(decideTagContact)
      .given({ contact: ann, tag: vip })
      .when({ id: 'k1', tagId: 't1', add: false })
      .then({ type: 'contact.untagged', payload: { contact_id: 'k1', tag_id: 't1' } });
    decider(decideTagContact)
      .given({ contact: { ...ann, erased: true }, tag: vip })
      .when({ id: 'k1', tagId: 't1', add: true })
      .thenRefuses('contact_erased');
  });

  it('contacts found from a conversation fill blanks, but not with an e-mail another contact holds', () => {
    const found = { id: 'k1', external_id: 'x1', email: null, name: null, phone: null, taken: ['email'] as const };
    const { events } = decideFindOrFillContact('new', { external_id: 'x1', email: 'held@x.io', name: 'Ann' }, found, null);
    expect(events.map((e) => e.payload)).to.deep.equal([{ contact_id: 'k1', name: 'Ann' }]);
  });

  it('a contact assertion names, as group-commit keys, its identities (e-mail case-folded) and the contact found; none for an e-mail outside ASCII', () => {
    const found = { id: 'k1', external_id: 'x', email: 'old@example.com', name: null, phone: null };
    expect(contactKeys({ external_id: 'x', email: 'New@Example.COM' }, found)).to.deep.equal([
      'contact:k1',
      'contact:external_id:x',
      'contact:email:new@example.com',
    ]);
    expect(contactKeys({ id: 'k2' }, null)).to.deep.equal(['contact:k2']);
    expect(contactKeys({ email: 'josé@example.com' }, null)).to.equal(null);
  });
});
