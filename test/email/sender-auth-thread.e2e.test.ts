// Sender authentication off the event loop (issue 43): mailauth's DKIM body
// hashing held the API for hundreds of ms on a 20 MB message. It runs in a
// parser thread now, and the DNS it asks is still answered here, by the
// resolver of the service's own thread. How long /healthz takes meanwhile is a
// timing, which the bench measures (`npm run bench -- email-hostile`); here the
// cause is asserted instead: while the zone holds its answer for a large
// message's DKIM key, the authentication waits in a thread, not in mailauth on
// this one, and the API answers. Then a budget that runs out: the message is
// filed flagged, and the next one authenticates, nothing wedged.
import { expect } from 'chai';
import { dkimSign } from 'mailauth';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { messageIdHash } from '../../src/capabilities/email/mime.js';
import type { Offload } from '../../src/platform/offload.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { CUSTOMER_ZONE, dkimKeys, sendMail, zoneResolver, type SendResult } from './mail-rig.js';

const ADDRESS = 'support@acme.example';
const FROM = 'grace@customer.example';
const SELECTOR = 'big';
const KEY_NAME = `${SELECTOR}._domainkey.customer.example`;
/** Several MB of body: what DKIM hashes and canonicalises, tens to hundreds of ms of one core. */
const BODY_BYTES = 6 * 1024 * 1024;

const dkim = dkimKeys();
const zone = zoneResolver({ ...CUSTOMER_ZONE, [KEY_NAME]: `v=DKIM1; k=rsa; p=${dkim.publicKey}` });

/** The zone, except that an answer for the DKIM key waits while `held` is set; `asked` lists every question it got. */
class HoldingZone {
  asked: string[] = [];
  private held: { release: () => void; done: Promise<void>; askedFor: () => void } | null = null;
  private keyAsked: Promise<void> = Promise.resolve();

  /** From now on the DKIM key's answer waits for `release()`; `whenAsked()` settles once the key has been asked for. */
  hold(): void {
    let release!: () => void;
    let askedFor!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    this.keyAsked = new Promise<void>((resolve) => (askedFor = resolve));
    this.held = { release, done, askedFor };
  }

  whenAsked(): Promise<void> {
    return this.keyAsked;
  }

  release(): void {
    this.held?.release();
    this.held = null;
  }

  resolve = async (name: string, rrtype: string): Promise<string[][]> => {
    this.asked.push(`${rrtype} ${name.toLowerCase()}`);
    const held = this.held;
    if (held && rrtype === 'TXT' && name.toLowerCase() === KEY_NAME) {
      held.askedFor();
      await held.done;
    }
    return zone(name, rrtype);
  };
}

/** A text message of about `bytes`, DKIM-signed by customer.example (relaxed/relaxed, the whole body). */
async function signedMail(messageId: string, bytes = BODY_BYTES): Promise<Buffer> {
  const line = 'The order arrived in pieces, and so did the replacement; here is everything that happened since.\r\n';
  const message = Buffer.from(
    [
      `From: Grace Hopper <${FROM}>`,
      `To: ${ADDRESS}`,
      'Subject: the whole story',
      `Message-ID: ${messageId}`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      line.repeat(Math.ceil(bytes / line.length)),
    ].join('\r\n'),
  );
  const signer = { signingDomain: 'customer.example', selector: SELECTOR, privateKey: dkim.privateKey, canonicalization: 'relaxed/relaxed' };
  // mailauth signs only what signatureData lists; its typings ask for the top-level fields too.
  const { signatures } = await dkimSign(message, { ...signer, signatureData: [signer] });
  expect(signatures).to.match(/^DKIM-Signature: /);
  return Buffer.concat([Buffer.from(signatures), message]);
}

let n = 0;
const mid = () => `<auth${++n}.${Date.now()}@customer.example>`;

async function withService(env: Record<string, string>): Promise<{ t: TestService; owner: Member; key: string; port: number }> {
  // Domain ownership is email-domains.e2e's subject; here the channel only needs to exist.
  const t = await startTestService('sender_auth_thread', { env: { SMTP_PORT: '0', EMAIL_DOMAIN_VERIFICATION: 'off', ...env } });
  const owner = await newWorkspace(t);
  const key = (await mintKey(t, owner, ['conversations:read'])).secret;
  const ch = await t.client.post(
    '/api/channels',
    { kind: 'email', name: 'Acme Support', address: ADDRESS, default_team_id: null },
    { cookie: owner.cookie, workspace: owner.workspaceId },
  );
  expect(ch.status, ch.text).to.equal(201);
  return { t, owner, key, port: (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port() };
}

/** The tasks the service's thread pool is running now, by function name (a spy on its Offload). */
function tasksInThreads(offload: Offload): string[] {
  const running: string[] = [];
  const run = offload.run.bind(offload);
  offload.run = async <T>(...args: Parameters<Offload['run']>): Promise<T> => {
    running.push(args[1]);
    try {
      return await run<T>(...args);
    } finally {
      running.splice(running.indexOf(args[1]), 1);
    }
  };
  return running;
}

/** The filed message's authentication and whether it was flagged, as the API shows them. */
async function filed(t: TestService, owner: Member, key: string, messageId: string) {
  const row = await t.testDb
    .db('email_messages')
    .where({ tenant_id: owner.workspaceId, message_id_hash: messageIdHash(messageId) })
    .first();
  expect(row, `no message filed for ${messageId}`).to.not.equal(undefined);
  const email = await t.client.get(`/api/conversations/${row.conversation_id}/parts/${row.part_id}/email`, { key });
  expect(email.status, email.text).to.equal(200);
  return { authentication: email.body.authentication, suspicious: row.suspicious as boolean };
}

describe('sender authentication in a parser thread, the DNS answered on the event loop', function () {
  this.timeout(120_000);
  const dns = new HoldingZone();
  let t: TestService;
  let owner: Member;
  let key: string;
  let port: number;
  let inThreads: string[];

  before(async () => {
    mailDns.resolver = dns.resolve;
    ({ t, owner, key, port } = await withService({}));
    inThreads = tasksInThreads(t.service.deps.offload);
    // The first message starts a thread and loads the parser and mailauth in it: not what is asserted below.
    expect((await sendMail(port, { to: ADDRESS, from: FROM, headers: [`From: <${FROM}>`] })).code).to.equal(250);
  });
  after(async () => {
    dns.release();
    delete mailDns.resolver;
    await t?.close();
  });

  it('answers /healthz while a large DKIM-signed message waits in a thread for its key, then files it authenticated', async () => {
    const messageId = mid();
    const raw = await signedMail(messageId);
    dns.asked = [];
    dns.hold();
    let sent: Promise<SendResult> | null = null;
    try {
      sent = sendMail(port, { to: ADDRESS, from: FROM, data: raw });
      // DKIM asks for its key once it has hashed the whole body: the expensive part is behind, or beside, this question.
      await dns.whenAsked();
      // What tells a thread from the loop: mailauth awaits the key without blocking either way, so /healthz alone would
      // answer on the loop too; but the hashing before this question ran where the authentication now waits.
      expect(inThreads, 'tasks in the thread pool while the key is asked for').to.include('authenticate');
      const health = await t.client.get('/healthz');
      expect(health.status).to.equal(200);
      // Still held, still waiting in the thread: the API answered meanwhile, not after.
      expect(inThreads).to.include('authenticate');
    } finally {
      dns.release();
    }
    const result = await sent;
    expect(result.code, result.response).to.equal(250);
    // Every question the thread asked was answered here, by the zone that lives on this thread.
    expect(dns.asked).to.include.members([`TXT ${KEY_NAME}`, 'TXT customer.example', 'TXT _dmarc.customer.example']);
    const f = await filed(t, owner, key, messageId);
    // The 6 MB body hashed in the thread matches the signature; SPF's and DMARC's answers crossed too.
    expect(f.authentication).to.deep.equal({ spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    expect(f.suspicious).to.equal(false);
    expect(inThreads).to.deep.equal([]);
  });
});

describe('sender authentication whose DNS is slow', function () {
  this.timeout(120_000);
  const dns = new HoldingZone();
  let t: TestService;
  let owner: Member;
  let key: string;
  let port: number;

  before(async () => {
    mailDns.resolver = dns.resolve;
    // One parser thread, as on a two-core machine: before, authentication took its turn there for as long as it waited.
    ({ t, owner, key, port } = await withService({ MAIL_PARSE_THREADS: '1' }));
    expect((await sendMail(port, { to: ADDRESS, from: FROM, headers: [`From: <${FROM}>`] })).code).to.equal(250);
  });
  after(async () => {
    dns.release();
    delete mailDns.resolver;
    await t?.close();
  });

  it('holds no other mail: a message sent while another waits for its DKIM key is filed first', async () => {
    const slow = mid();
    dns.hold();
    let slowAnswered = false;
    try {
      const sent = sendMail(port, { to: ADDRESS, from: FROM, data: await signedMail(slow, 64 * 1024) }).then((r) => {
        slowAnswered = true;
        return r;
      });
      await dns.whenAsked();
      const quick = mid();
      const r = await sendMail(port, { to: ADDRESS, from: FROM, headers: [`From: <${FROM}>`, `Message-ID: ${quick}`] });
      expect(r.code, r.response).to.equal(250);
      // Its key still unanswered (until the budget, 20 s): the quick one was parsed and authenticated beside it.
      expect(slowAnswered, 'the slow message was answered before the quick one').to.equal(false);
      expect((await filed(t, owner, key, quick)).authentication).to.deep.equal({ spf: 'pass', dkim: 'none', dmarc: 'pass' });
      dns.release();
      expect((await sent).code).to.equal(250);
    } finally {
      dns.release();
    }
    expect((await filed(t, owner, key, slow)).authentication).to.deep.equal({ spf: 'pass', dkim: 'pass', dmarc: 'pass' });
  });
});

describe('sender authentication over its budget (MAIL_AUTH_TIMEOUT_MS)', function () {
  this.timeout(120_000);
  const BUDGET_MS = 5000;
  const dns = new HoldingZone();
  let t: TestService;
  let owner: Member;
  let key: string;
  let port: number;

  before(async () => {
    mailDns.resolver = dns.resolve;
    ({ t, owner, key, port } = await withService({ MAIL_AUTH_TIMEOUT_MS: String(BUDGET_MS) }));
  });
  after(async () => {
    dns.release();
    delete mailDns.resolver;
    await t?.close();
  });

  it('files a message whose DNS never answers within the budget flagged as temperror, and the next one authenticates', async () => {
    const stuck = mid();
    dns.hold();
    try {
      const r = await sendMail(port, { to: ADDRESS, from: FROM, data: await signedMail(stuck, 64 * 1024) });
      expect(r.code, r.response).to.equal(250);
    } finally {
      // The answer arrives after its thread was ended and its port closed: dropped, nothing else.
      dns.release();
    }
    const f = await filed(t, owner, key, stuck);
    expect(f.authentication).to.deep.equal({ spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' });
    expect(f.suspicious).to.equal(true);

    const next = mid();
    const r = await sendMail(port, { to: ADDRESS, from: FROM, data: await signedMail(next, 64 * 1024) });
    expect(r.code, r.response).to.equal(250);
    expect((await filed(t, owner, key, next)).authentication).to.deep.equal({ spf: 'pass', dkim: 'pass', dmarc: 'pass' });
    expect(t.logs.join('')).not.to.include('could not file a message');
  });
});
