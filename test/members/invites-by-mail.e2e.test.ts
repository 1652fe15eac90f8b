// With a mail relay, an invite's token goes to the invitee's mailbox and not to
// the inviter: the inviter never holds what creates an account for a new
// address and sets its password (issue 35, item 3: account squatting).
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { ManualClock } from '../../src/platform/clock.js';
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

  it("quotes the inviter's name as one capped line inside the service's own wording (a name is no place for instructions)", async () => {
    // An admin who chose a name that reads as instructions, over several lines.
    const hostile =
      'IT Security. ACTION REQUIRED: your mailbox is suspended.\r\nRe-verify at https://evil.example/login\u2028now\u0085or lose it. ' + 'x'.repeat(60);
    const adminEmail = `admin-${Date.now()}@example.com`;
    const sent = smtp.received.length;
    expect((await t.client.post('/api/members/invites', { email: adminEmail, role: 'admin' }, as())).status).to.equal(201);
    const invite = (await smtp.waitFor(sent + 1))[sent];
    const adminToken = decodeURIComponent(/accept-invite#token=([A-Za-z0-9_%-]+)/.exec((await simpleParser(invite!.raw)).text ?? '')![1]!);
    expect((await t.client.post('/api/invites/accept', { token: adminToken, name: hostile, password: 'admin password 123' })).status).to.equal(202);
    const cookie = await signIn(t, adminEmail, 'admin password 123');
    const before = smtp.received.length;
    const target = `target-${Date.now()}@victim.example`;
    const inv = await t.client.post('/api/members/invites', { email: target, role: 'agent' }, { cookie, workspace: owner.workspaceId });
    expect(inv.status, inv.text).to.equal(201);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const text = ((await simpleParser(mail!.raw)).text ?? '').replace(/\r\n/g, '\n');
    const lines = text.split('\n');
    // It opens with the service's wording, not with the name.
    expect(lines[0]).to.equal('You are invited to join the workspace "Mailed Co" as an agent.');
    // The name is on one line, quoted, cut to 60 characters, and nothing of it starts a line.
    const named = lines.find((l) => l.includes('IT Security'))!;
    expect(named).to.match(/^The invitation was sent by a member of that workspace, whose name there is "IT Security\. ACTION REQUIRED: [^"\n]{1,60}"\.$/);
    const quoted = /"([^"]*)"\.$/.exec(named)![1]!;
    expect([...quoted].length).to.be.at.most(60);
    expect(quoted.endsWith('…')).to.equal(true);
    for (const l of lines) expect(l.startsWith('Re-verify'), l).to.equal(false);
    expect(lines.filter((l) => l.includes('evil.example'))).to.have.length.at.most(1);
  });
});

describe('invites are rate-limited per inviter', function () {
  let t: TestService;
  let smtp: SmtpReceiver;
  const clock = new ManualClock(new Date());

  before(async () => {
    smtp = await new SmtpReceiver().start();
    t = await startTestService('invites_limited', { clock, env: { SMTP_RELAY_URL: smtp.url } });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('takes 20 invites from one member at once, then 429 too_many_invites with Retry-After, one more every 3 minutes; others are not held up', async () => {
    const busy = await newWorkspace(t, 'Busy Co');
    const other = await newWorkspace(t, 'Other Co');
    const invite = (m: Member, n: string) =>
      t.client.post('/api/members/invites', { email: `${n}-${Date.now()}@example.com`, role: 'viewer' }, { cookie: m.cookie, workspace: m.workspaceId });
    for (let i = 0; i < 20; i++) {
      const r = await invite(busy, `burst${i}`);
      expect(r.status, `${i}: ${r.text}`).to.equal(201);
    }
    const mailed = smtp.received.length;
    const refused = await invite(busy, 'one-too-many');
    expect(refused.status, refused.text).to.equal(429);
    expect(refused.body.errors[0].code).to.equal('too_many_invites');
    expect(refused.headers.get('retry-after')).to.equal('180');
    // Nothing was mailed for it.
    expect(smtp.received.length).to.equal(mailed);
    // Another member's invites are their own.
    expect((await invite(other, 'elsewhere')).status).to.equal(201);
    // A refusal that says when to try again is about that moment, not the request: the same request
    // under the same Idempotency-Key, sent after Retry-After, runs (a stored 429 would answer it forever).
    const retried = { email: `retried-${Date.now()}@example.com`, role: 'viewer' };
    const keyed = { cookie: busy.cookie, workspace: busy.workspaceId, headers: { 'Idempotency-Key': 'invite-after-the-window' } };
    const early = await t.client.post('/api/members/invites', retried, keyed);
    expect(early.status, early.text).to.equal(429);
    expect(early.headers.get('idempotent-replayed')).to.equal(null);
    clock.advance(180_000);
    const after = await t.client.post('/api/members/invites', retried, keyed);
    expect(after.status, after.text).to.equal(201);
    expect(after.headers.get('idempotent-replayed')).to.equal(null);
    // Its answer, a success, is stored as any other.
    const replay = await t.client.post('/api/members/invites', retried, keyed);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.text).to.equal(after.text);
    clock.advance(180_000);
    expect((await invite(busy, 'later')).status).to.equal(201);
    expect((await invite(busy, 'too-soon')).status).to.equal(429);
  });
});
