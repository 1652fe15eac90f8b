// With a mail relay, an invite's token goes to the invitee's mailbox and not to
// the inviter: the inviter never holds what creates an account for a new
// address and sets its password (issue 35, item 3: account squatting).
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';

describe('invites by mail', function () {
  let t: TestService;
  let smtp: SmtpReceiver;
  let owner: Member;
  const as = () => ({ cookie: owner.cookie, workspace: owner.workspaceId });

  before(async () => {
    smtp = await new SmtpReceiver().start();
    t = await startTestService('invites_by_mail', { env: { SMTP_RELAY_URL: smtp.url, PUBLIC_URL: 'https://help.example' } });
    owner = await newWorkspace(t, 'Mailed Co');
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it("an invite for a new address does not let the inviter set its password: the token is only in the invitee's mailbox", async () => {
    const email = `new-${Date.now()}@example.com`;
    const inv = await t.client.post('/api/members/invites', { email, role: 'agent' }, as());
    expect(inv.status, inv.text).to.equal(201);
    expect(inv.body).to.deep.include({ type: 'invite', email, role: 'agent', status: 'pending', delivery: 'email' });
    expect(inv.body).to.not.have.property('token');

    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).to.deep.equal([email]);
    const text = (await simpleParser(mail!.raw)).text ?? '';
    expect(text).to.include('Mailed Co');
    const token = decodeURIComponent(/https:\/\/help\.example\/accept-invite#token=([A-Za-z0-9_%-]+)/.exec(text)![1]!);
    // Nothing the inviter can read has it: not the answer, not the invite list, not the feed.
    const seen = [inv.text, (await t.client.get('/api/members/invites', as())).text, (await t.client.get('/api/events?per_page=150', as())).text];
    for (const s of seen) expect(s).to.not.include(token);

    // The invitee, from the mail, sets the password.
    expect((await t.client.post('/api/invites/accept', { token, name: 'New Person', password: 'chosen by the invitee' })).status).to.equal(202);
    expect(await signIn(t, email, 'chosen by the invitee')).to.be.a('string');
  });

  it('a relay that refuses the address for good, or cannot be reached, leaves no invite behind', async () => {
    const head = await t.service.deps.store.head(owner.workspaceId);
    smtp.refuse = () => 550;
    const refused = await t.client.post('/api/members/invites', { email: `bounce-${Date.now()}@example.com`, role: 'agent' }, as());
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.errors[0]).to.include({ code: 'mail_refused', field: 'email' });
    smtp.refuse = () => 451;
    const later = await t.client.post('/api/members/invites', { email: `later-${Date.now()}@example.com`, role: 'agent' }, as());
    expect(later.status, later.text).to.equal(503);
    expect(later.body.errors[0].code).to.equal('mail_relay_unavailable');
    expect(later.headers.get('retry-after')).to.equal('30');
    smtp.refuse = () => null;
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
  });
});
