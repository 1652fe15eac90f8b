// Company rules as specifications: given the loaded state, when a command, then events or a coded refusal.
import { decideCreateCompany, decideDeleteCompany, decideUpdateCompany, type CompanyView } from '../../src/capabilities/companies/companies.decider.js';
import { exactDecider } from '../support/decider-spec-exact.js';

const ID = '11111111-2222-4333-8444-555555555555';
const acme: CompanyView = {
  id: ID,
  companyId: 'acme',
  name: 'Acme',
  website: 'https://acme.example',
  plan: 'pro',
  size: 40,
  customAttributes: { tier: 'gold', seats: 10 },
};

describe('companies decider (unit)', () => {
  const create = exactDecider(decideCreateCompany);
  const update = exactDecider(decideUpdateCompany);
  const remove = exactDecider(decideDeleteCompany);

  it('a company created with only a name records the other fields as null and no custom attributes', () => {
    create
      .given({ existing: null })
      .when({ id: ID, companyId: 'acme', fields: { name: 'Acme' } })
      .then({
        type: 'company.created',
        aggregate_type: 'company',
        aggregate_id: ID,
        payload: { id: ID, company_id: 'acme', name: 'Acme', website: null, plan: null, size: null, custom_attributes: {} },
      });
  });
  it('a company created with every field records them, custom attributes without the ones sent as null', () => {
    create
      .given({ existing: null })
      .when({
        id: ID,
        companyId: 'acme',
        fields: { name: 'Acme', website: 'https://acme.example', plan: 'pro', size: 40, custom_attributes: { tier: 'gold', beta: true, gone: null } },
      })
      .then({
        type: 'company.created',
        aggregate_type: 'company',
        aggregate_id: ID,
        payload: {
          id: ID,
          company_id: 'acme',
          name: 'Acme',
          website: 'https://acme.example',
          plan: 'pro',
          size: 40,
          custom_attributes: { tier: 'gold', beta: true },
        },
      });
  });
  it('a second company with a company_id the workspace holds is refused', () => {
    create
      .given({ existing: acme })
      .when({ id: 'other', companyId: 'acme', fields: { name: 'Acme 2' } })
      .thenRefuses({ code: 'company_exists', status: 409 });
  });

  it('an update records only the fields that change, custom attributes merged by key (null removes one)', () => {
    update
      .given(acme)
      .when({ id: ID, fields: { name: 'Acme', website: null, plan: 'pro', size: 41, custom_attributes: { seats: 12, tier: null, region: 'eu' } } })
      .then({
        type: 'company.updated',
        aggregate_type: 'company',
        aggregate_id: ID,
        payload: { id: ID, website: null, size: 41, custom_attributes: { seats: 12, region: 'eu' } },
      });
  });
  it('an update that changes nothing (same values, same attributes, removing an absent one) appends nothing', () => {
    update
      .given(acme)
      .when({ id: ID, fields: { name: 'Acme', website: 'https://acme.example', plan: 'pro', size: 40, custom_attributes: { tier: 'gold', absent: null } } })
      .thenNothing();
    update.given(acme).when({ id: ID, fields: {} }).thenNothing();
  });
  it("an update of a company not loaded (none, or another workspace's) is a 404", () => {
    update
      .given(null)
      .when({ id: ID, fields: { name: 'x' } })
      .thenRefuses({ code: 'not_found', status: 404 });
  });

  it('deleting a company appends its deletion', () => {
    remove
      .given(acme)
      .when({ id: ID })
      .then({ type: 'company.deleted', aggregate_type: 'company', aggregate_id: ID, payload: { id: ID } });
  });
  it("deleting a company not loaded (none, already deleted, or another workspace's) is a 404", () => {
    remove.given(null).when({ id: ID }).thenRefuses({ code: 'not_found', status: 404 });
  });
});
