// Self-service password resets through a real SMTP relay (a smtp-server started
// here): the request is answered identically for known and unknown addresses, the
// link reaches the account's mailbox (never the answer), works once and for a
// short time, and sets the password, ending the account's sessions.
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { ManualClock } from '../../src/platform/clock.js';
import { newWorkspace, signIn, startTestService, type Member, type TestService } from '../support/service.js';
import { SmtpReceiver, type ReceivedMail } from '../support/smtp-receiver.js';

/** The token of a reset or invite mail, from its decoded text (the link's fragment). */
async function tokenIn(mail: ReceivedMail): Promise<string> {
  const text = (await simpleParser(mail.raw)).text ?? '';
  const m = /#token=([A-Za-z0-9_-]+)/.exec(text);
  expect(m, text).to.not.equal(null);
  return decodeURIComponent(m![1]!);
}

describe('password resets by mail', function () {
  let t: TestService;
  let clock: ManualClock;
  let smtp: SmtpReceiver;
  let owner: Member;
  const reset = (email: string) => t.client.post('/api/password_resets', { email });
  const confirm = (token: string, password: string) => t.client.post('/api/password_resets/confirm', { token, password });

  before(async () => {
    clock = new ManualClock(new Date());
    smtp = await new SmtpReceiver().start();
    t = await startTestService('password_reset', {
      clock,
      env: { SMTP_RELAY_URL: smtp.url, MAIL_FROM: 'Help desk <no-reply@help.example>', PUBLIC_URL: 'https://help.example', PASSWORD_RESET_TTL_MINUTES: '20' },
    });
    owner = await newWorkspace(t);
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('answers identically for known and unknown addresses; only the account gets a mail, with a link the answer does not carry', async () => {
    const unknown = await reset(`nobody-${Date.now()}@example.com`);
    const known = await reset(owner.email.toUpperCase());
    for (const r of [unknown, known]) expect(r.status, r.text).to.equal(202);
    expect(known.body).to.deep.equal(unknown.body);
    expect(known.body).to.deep.equal({ type: 'password_reset', status: 'requested', expires_in_minutes: 20 });
    const headers = (r: typeof known) => [...r.headers.keys()].filter((k) => !['date', 'x-request-id', 'content-length', 'etag'].includes(k)).sort();
    expect(headers(known)).to.deep.equal(headers(unknown));
    expect(known.headers.get('content-length')).to.equal(unknown.headers.get('content-length'));

    // Mail goes out in order, after the answers: once the known address's is in, the unknown one had its turn.
    const [mail] = await smtp.waitFor(1);
    expect(smtp.received).to.have.length(1);
    expect(mail!.to).to.deep.equal([owner.email]);
    expect(mail!.from).to.equal('no-reply@help.example');
    expect(mail!.raw).to.match(/^Subject: Reset your password\r$/m);
    expect(mail!.raw).to.match(/^Auto-Submitted: auto-generated\r$/m);
    const token = await tokenIn(mail!);
    expect((await simpleParser(mail!.raw)).text).to.include(`https://help.example/reset-password#token=${token}`);
    expect(known.text).to.not.include(token);
    // Only its hash is kept.
    const rows = await t.testDb.db('password_resets').select('token_hash');
    expect(JSON.stringify(rows)).to.not.include(token);
  });

  it('sets the new password once, ends the sessions and leaves the old password useless', async () => {
    smtp.received.length = 0;
    const session = await signIn(t, owner.email, owner.password);
    expect((await reset(owner.email)).status).to.equal(202);
    const token = await tokenIn((await smtp.waitFor(1))[0]!);

    const done = await confirm(token, 'a brand new password');
    expect(done.status, done.text).to.equal(200);
    expect(done.body).to.deep.equal({ type: 'password_reset', status: 'done' });
    const again = await confirm(token, 'yet another password');
    expect(again.status).to.equal(404);
    expect(again.body.errors[0].code).to.equal('reset_not_found');
    expect((await t.client.post('/api/session', { email: owner.email, password: owner.password })).status).to.equal(401);
    expect((await t.client.get('/api/me', { cookie: session, workspace: owner.workspaceId })).status, 'the old session ended').to.equal(401);
    owner = { ...owner, password: 'a brand new password', cookie: await signIn(t, owner.email, 'a brand new password') };
  });

  it('a link stops working after its time, and a newer link replaces an older one', async () => {
    smtp.received.length = 0;
    clock.advance(30 * 60_000); // the address's link budget refills (a burst of 3, then one every 10 minutes)
    expect((await reset(owner.email)).status).to.equal(202);
    const first = await tokenIn((await smtp.waitFor(1))[0]!);
    expect((await reset(owner.email)).status).to.equal(202);
    const second = await tokenIn((await smtp.waitFor(2))[1]!);
    expect((await confirm(first, 'not taken at all')).status, 'replaced').to.equal(404);
    clock.advance(20 * 60_000 + 1000);
    expect((await confirm(second, 'not taken either')).status, 'expired').to.equal(404);
    expect(await signIn(t, owner.email, owner.password)).to.be.a('string');
    expect((await confirm('not-a-token', 'whatever password')).status).to.equal(404);
  });

  it('limits the links asked for one address (429), without touching its sign-ins', async () => {
    const email = `flooded-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await reset(email)).status);
    expect(statuses).to.deep.equal([202, 202, 202, 429]);
    expect(await signIn(t, owner.email, owner.password)).to.be.a('string');
  });
});
