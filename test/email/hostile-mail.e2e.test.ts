// Hostile mail over real SMTP (issue 43; security review 2026-11-28, findings
// 1, 5 and 8). The review's reproductions as fixed cases, then a standing
// defence: fast-check generates hostile MIME (nesting, encodings, long lines,
// odd headers, reports, surrogate cuts, large HTML) and every message must be
// answered within the parse budget, with 250 or a permanent refusal the
// sender hears (552 too complex, 554 unreadable), never a 4xx the MTA would
// retry forever. How responsive /healthz stays meanwhile is a timing, so it is
// measured by the bench (`npm run bench -- email-hostile`), not asserted here:
// on two cores shared with the rest of npm test it says more about the
// neighbours than about the service.
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { ManualClock } from '../../src/platform/clock.js';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { messageIdHash } from '../../src/capabilities/email/mime.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { sendMail, sendMails, zoneResolver, type SendResult } from './mail-rig.js';
import {
  attributionMail,
  bigHtmlMail,
  longDiagnosticReport,
  SURROGATE_BODY,
  SURROGATE_FILENAME,
  SURROGATE_SUBJECT,
  surrogateAttachmentMail,
  surrogateBodyMail,
  surrogateSubjectMail,
} from './hostile-mail.js';
import { hostileMessage } from './hostile-arbitraries.js';

const ADDRESS = 'support@acme.example';
const FROM = 'mallory@customer.example';
const PARSE_TIMEOUT_MS = 10_000;
/** Two attempts (full, then text only) and the filing: the longest a message may wait for its answer. */
const BUDGET_MS = 2 * PARSE_TIMEOUT_MS + 5000;
const MIME_SECRET = 'hostile-mime-secret-0123456789';
/** Property runs: each a message over SMTP; about 10 s on two loaded cores. */
const RUNS = 40;

let n = 0;
const mid = () => `<h${++n}.${Date.now()}@customer.example>`;

async function withService(env: Record<string, string>): Promise<{ t: TestService; owner: Member; key: string; channelId: string; port: number }> {
  // Domain ownership is email-domains.e2e's subject; here the channel only needs to exist.
  const t = await startTestService('hostile_mail', { clock: new ManualClock(new Date()), env: { SMTP_PORT: '0', EMAIL_DOMAIN_VERIFICATION: 'off', ...env } });
  const owner = await newWorkspace(t);
  const key = (await mintKey(t, owner, ['conversations:read', 'contacts:read'])).secret;
  const ch = await t.client.post(
    '/api/channels',
    { kind: 'email', name: 'Acme Support', address: ADDRESS, default_team_id: null, webhook_secret: MIME_SECRET },
    { cookie: owner.cookie, workspace: owner.workspaceId },
  );
  expect(ch.status, ch.text).to.equal(201);
  return { t, owner, key, channelId: ch.body.id, port: (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port() };
}

describe('hostile mail over real SMTP', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let key: string;
  let port: number;
  const deliver = (data: Buffer, to: string | string[] = ADDRESS) => sendMail(port, { to, from: FROM, data });
  /** The part filed for a Message-ID, with its conversation and e-mail as the API shows them; null when none was filed. */
  const filed = async (messageId: string) => {
    const row = await t.testDb
      .db('email_messages')
      .where({ tenant_id: owner.workspaceId, message_id_hash: messageIdHash(messageId) })
      .first();
    if (!row) return null;
    const conv = await t.client.get(`/api/conversations/${row.conversation_id}`, { key });
    const email = await t.client.get(`/api/conversations/${row.conversation_id}/parts/${row.part_id}/email`, { key });
    expect(conv.status, conv.text).to.equal(200);
    expect(email.status, email.text).to.equal(200);
    const part = conv.body.parts.find((p: { id: string }) => p.id === row.part_id);
    return { conversation: conv.body, part, email: email.body };
  };
  const refusedAsRetryable = (r: SendResult) => r.code !== null && r.code >= 400 && r.code < 500;

  before(async () => {
    mailDns.resolver = zoneResolver({ 'customer.example': 'v=spf1 ip4:127.0.0.1 -all', '_dmarc.customer.example': 'v=DMARC1; p=none' });
    ({ t, owner, key, port } = await withService({ MAIL_PARSE_TIMEOUT_MS: String(PARSE_TIMEOUT_MS) }));
    // The first message starts a parser thread and loads mailparser in it: not what the cases below measure.
    expect((await deliver(attributionMail({ to: ADDRESS, from: FROM }, 10))).code).to.equal(250);
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
  });

  describe('the review’s reproductions', () => {
    for (const [label, pairs] of [
      ['the 5.7 KB attribution mail (a 4,000-character line of `<@`)', 2000],
      ['a 20 KB attribution line', 10_000],
    ] as const) {
      it(`files ${label} as text, its quote apart`, async () => {
        const messageId = mid();
        const result = await deliver(attributionMail({ to: ADDRESS, from: FROM, messageId }, pairs));
        expect(result.code, result.response).to.equal(250);
        const f = await filed(messageId);
        expect(f!.part.body).to.equal(`Hi,\n${'<@'.repeat(pairs)}`);
        expect(f!.email.quoted).to.equal('> quoted');
      });
    }

    it('reads a 110 KB report with an 80,000-space Diagnostic-Code', async () => {
      const messageId = mid();
      const head = await t.service.deps.store.head(owner.workspaceId);
      const result = await deliver(longDiagnosticReport({ to: ADDRESS, from: 'mailer-daemon@customer.example', messageId }));
      expect(result.code, result.response).to.equal(250);
      // A failure report about a message the channel never sent: nothing is filed.
      expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
    });

    it('files a 20 MB HTML mail as its text only (no HTML kept), received off the event loop with each byte copied once', async () => {
      const messageId = mid();
      const raw = bigHtmlMail({ to: ADDRESS, from: FROM, messageId });
      const receiver = t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver;
      const before = await receiver.gathering();
      const result = await deliver(raw);
      expect(result.code, result.response).to.equal(250);
      // The receive path, counted (its time is the bench's email-hostile row): the receiver's own thread (not the
      // event loop's, 0) copied each byte once and grew the buffer about 20 times (not once a 64 KiB read, 320).
      const after = await receiver.gathering();
      expect(after.threadId).to.not.equal(0);
      expect(after.bytes - before.bytes).to.equal(raw.length);
      expect(after.grows - before.grows).to.be.at.most(32);
      const f = await filed(messageId);
      expect(f!.email.html).to.equal(null);
      expect(f!.part.body.startsWith('Hello there & welcome to our shop\nHello there & welcome')).to.equal(true);
    });

    it('files mail whose subject, attachment name and body are cut inside a surrogate pair (not 451 for ever)', async () => {
      const ids = [mid(), mid(), mid()];
      const subject = await deliver(surrogateSubjectMail({ to: ADDRESS, from: FROM, messageId: ids[0] }));
      const attachment = await deliver(surrogateAttachmentMail({ to: ADDRESS, from: FROM, messageId: ids[1] }));
      const body = await deliver(surrogateBodyMail({ to: ADDRESS, from: FROM, messageId: ids[2] }));
      for (const r of [subject, attachment, body]) expect(r.code, r.response).to.equal(250);
      expect((await filed(ids[0]!))!.conversation.subject).to.equal(SURROGATE_SUBJECT.slice(0, 997));
      expect((await filed(ids[1]!))!.part.attachments.map((a: { name: string }) => a.name)).to.deep.equal([SURROGATE_FILENAME.slice(0, 254)]);
      expect((await filed(ids[2]!))!.part.body).to.equal(SURROGATE_BODY.slice(0, 65_534));
    });

    it('takes 100 recipients of a message and answers the rest 452 (the sender sends them again): one session named 1,000', async () => {
      const messageId = mid();
      const rcpts = Array.from({ length: 1000 }, (_, i) => `support+r${i}@acme.example`);
      const r = await deliver(attributionMail({ to: ADDRESS, from: FROM, messageId }, 10), rcpts);
      expect(r.code, r.response).to.equal(250);
      expect(r.rejected).to.have.length(900);
      expect(new Set(r.rejected.map((x) => x.code))).to.deep.equal(new Set([452]));
      expect(r.rejected[0]!.address).to.equal('support+r100@acme.example');
      expect(await filed(messageId)).to.not.equal(null);
    });
  });

  it(`answers ${RUNS} generated hostile messages within the budget, none with a 4xx`, async () => {
    const answers: { code: number | null; ms: number }[] = [];
    await fc.assert(
      fc.asyncProperty(hostileMessage({ to: ADDRESS, from: FROM }), async (raw) => {
        const started = performance.now();
        const r = await deliver(raw);
        const ms = performance.now() - started;
        answers.push({ code: r.code, ms });
        expect(ms, 'answered within the budget').to.be.below(BUDGET_MS);
        expect(refusedAsRetryable(r), `a ${r.code} the same bytes would get again: ${r.response}`).to.equal(false);
        expect([250, 552, 554], r.response).to.include(r.code);
      }),
      { numRuns: RUNS },
    );
    expect(answers.filter((a) => a.code === 250).length, 'most hostile mail is still filed').to.be.above(RUNS / 2);
    expect(t.logs.join('')).not.to.include('could not file a message');
  });
});

describe('the SMTP receiver’s caps and its parse budget', function () {
  this.timeout(60_000);
  let t: TestService;
  let owner: Member;
  let port: number;
  let channelId: string;

  before(async () => {
    mailDns.resolver = zoneResolver({ 'customer.example': 'v=spf1 ip4:127.0.0.1 -all' });
    // A budget no parse can meet (a fresh thread loads mailparser first): every message is over it, even as text.
    ({ t, owner, port, channelId } = await withService({ SMTP_MAX_CLIENTS: '2', SMTP_MAX_MESSAGES_PER_CONNECTION: '2', MAIL_PARSE_TIMEOUT_MS: '1' }));
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
  });

  it('refuses a message over the parse budget even as text with 552 5.3.4, for good, and files nothing', async () => {
    const head = await t.service.deps.store.head(owner.workspaceId);
    const r = await sendMail(port, { to: ADDRESS, from: FROM, headers: ['Subject: hello'], body: 'Hello' });
    expect(r, r.transcript).to.include({ accepted: false, refusedAt: 'data', code: 552 });
    expect(r.response).to.match(/^552 5\.3\.4 /);
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
  });

  it('answers the raw MIME route 413 mime_too_complex for such a message (a retry gets the same)', async () => {
    const raw = 'From: Mallory <mallory@customer.example>\r\nSubject: hello\r\nMessage-ID: <budget@customer.example>\r\n\r\nHello\r\n';
    const r = await t.client.post(`/api/channels/${channelId}/inbound/mime`, undefined, {
      raw,
      headers: {
        'content-type': 'message/rfc822',
        'x-service-signature': createHmac('sha256', MIME_SECRET).update(raw).digest('hex'),
        'x-service-timestamp': String(Math.floor(t.clock.now().getTime() / 1000)),
      },
    });
    expect(r.status, r.text).to.equal(413);
    expect(r.body.errors[0].code).to.equal('mime_too_complex');
  });

  it('takes SMTP_MAX_MESSAGES_PER_CONNECTION messages a connection, then answers MAIL 421 (the sender connects again)', async () => {
    const m = { to: ADDRESS, from: FROM, headers: ['Subject: hello'], body: 'Hello' };
    const [first, second, third] = await sendMails(port, [m, m, m]);
    for (const r of [first!, second!]) expect(r.refusedAt, r.transcript).to.equal('data');
    expect(third, third!.transcript).to.include({ refusedAt: 'mail', code: 421 });
  });

  it('holds SMTP_MAX_CLIENTS connections at once: the next is answered 421 at connect', async () => {
    const SMTPConnection = (await import('nodemailer/lib/smtp-connection')).default;
    const connect = () =>
      new Promise<InstanceType<typeof SMTPConnection> | null>((resolve) => {
        const c = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true });
        c.once('error', () => resolve(null));
        c.connect(() => resolve(c));
      });
    // The earlier tests' connections may still be closing on the server's side: a refused one is tried again.
    const held: InstanceType<typeof SMTPConnection>[] = [];
    for (let attempt = 0; held.length < 2 && attempt < 100; attempt++) {
      const c = await connect();
      if (c) held.push(c);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(held).to.have.length(2);
    try {
      const r = await sendMail(port, { to: ADDRESS, from: FROM, body: 'one too many' });
      expect(r, r.transcript).to.include({ accepted: false, refusedAt: 'connect', code: 421 });
    } finally {
      for (const c of held) c.close();
    }
  });
});
