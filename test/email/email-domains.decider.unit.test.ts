// E-mail domain rules as specifications: verified only by the record holding the workspace's own token.
import { expect } from 'chai';
import {
  decideCreateEmailDomain,
  decideDeleteEmailDomain,
  decideVerifyEmailDomain,
  txtRecord,
  type EmailDomainView,
} from '../../src/capabilities/email-domains/email-domains.decider.js';
import { AppError } from '../../src/platform/errors.js';

const pending: EmailDomainView = { id: '00000000-0000-4000-8000-0000000000d1', domain: 'acme.example', status: 'pending', token: 'tok-1' };
const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'none';
};

describe('e-mail domains decider (unit)', () => {
  it('publishes the token at _conversation-service.<domain>', () => {
    expect(txtRecord('acme.example', 'tok-1')).to.deep.equal({
      name: '_conversation-service.acme.example',
      value: 'conversation-service-verification=tok-1',
    });
  });

  it("verifies only when a record holds this workspace's token; a repeat appends nothing; unknown is 404", () => {
    expect(codeOf(() => decideVerifyEmailDomain({ records: [] }, pending))).to.equal('domain_not_verified');
    expect(codeOf(() => decideVerifyEmailDomain({ records: ['conversation-service-verification=tok-2', 'v=spf1 -all'] }, pending))).to.equal(
      'domain_not_verified',
    );
    expect(decideVerifyEmailDomain({ records: ['v=spf1 -all', 'conversation-service-verification=tok-1'] }, pending).map((e) => e.type)).to.deep.equal([
      'email_domain.verified',
    ]);
    expect(decideVerifyEmailDomain({ records: [] }, { ...pending, status: 'verified' })).to.deep.equal([]);
    expect(codeOf(() => decideVerifyEmailDomain({ records: [] }, null))).to.equal('not_found');
  });

  it('refuses a domain the workspace has already, and deletes only what exists', () => {
    expect(codeOf(() => decideCreateEmailDomain({ id: 'x', domain: 'acme.example', token: 't' }, { sameDomain: pending }))).to.equal('email_domain_exists');
    expect(decideCreateEmailDomain({ id: 'x', domain: 'acme.example', token: 't' }, { sameDomain: null })[0]!.payload).to.deep.equal({
      id: 'x',
      domain: 'acme.example',
      token: 't',
    });
    expect(decideDeleteEmailDomain(pending).map((e) => e.type)).to.deep.equal(['email_domain.deleted']);
    expect(codeOf(() => decideDeleteEmailDomain(null))).to.equal('not_found');
  });
});
