import { expect } from 'chai';
import { ManualClock } from '../../src/platform/clock.js';
import { mailDns } from '../../src/capabilities/email/index.js';
import { replyAddress, replyAddressKey, replyToken } from '../../src/capabilities/email/addresses.js';
import { createChannel, createEmailChannel, postSigned } from '../support/channels.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { CUSTOMER_ZONE, receivedFrom127, zoneResolver } from './mail-rig.js';

const SECRET = 'mime-forwarder-secret-0123456789';

describe('raw MIME over HTTP (POST /api/channels/{id}/inbound/mime)', function () {
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let channelId: string;
  const post = (raw: string, o: { secret?: string; type?: string; channel?: string; ts?: number } = {}) =>
    postSigned(t, `/api/channels/${o.channel ?? channelId}/inbound/mime`, o.secret ?? SECRET, raw, {
      contentType: o.type ?? 'message/rfc822',
      timestamp: o.ts,
    });
  const message = (id: string, extra = '') =>
    [
      ...receivedFrom127('mo@customer.example'),
      `From: Mo <mo@customer.example>`,
      `To: help@widgets.example`,
      `Subject: via the forwarder`,
      `Message-ID: <${id}@customer.example>`,
      extra,
      '',
      'Hello from a pipe.',
      '',
    ]
      .filter((l, i) => l !== '' || i > 6)
      .join('\r\n');

  before(async () => {
    mailDns.resolver = zoneResolver(CUSTOMER_ZONE);
    clock = new ManualClock(new Date());
    t = await startTestService('email_mime', { clock, env: { EMAIL_DOMAIN_VERIFICATION: 'off' } });
    owner = await newWorkspace(t);
    key = (await mintKey(t, owner, ['conversations:read'])).secret;
    channelId = await createEmailChannel(t, owner, { address: 'help@widgets.example', secret: SECRET });
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
  });

  it('files a signed message like SMTP does, and its retry as a duplicate', async () => {
    const raw = message('pipe-1');
    const r = await post(raw);
    expect(r.status, r.text).to.equal(201);
    expect(r.body).to.include({ type: 'inbound_receipt', status: 'conversation_created' });
    const conv = await t.client.get(`/api/conversations/${r.body.conversation_id}`, { key });
    expect(conv.body).to.include({ subject: 'via the forwarder', channel_id: channelId });
    expect(conv.body.parts[0].body).to.equal('Hello from a pipe.');
    const again = await post(raw);
    expect(again.status).to.equal(202);
    expect(again.body).to.include({ status: 'duplicate', conversation_id: r.body.conversation_id, part_id: r.body.part_id });
  });

  it("threads a message addressed to a conversation's reply address (its To, as a forwarder keeps it), and not a forged one", async () => {
    const first = await post(message('pipe-thread-1'));
    expect(first.status, first.text).to.equal(201);
    const token = replyToken(await replyAddressKey(t.service.deps.config), {
      tenantId: owner.workspaceId,
      channelId,
      conversationId: first.body.conversation_id,
    });
    const to = (address: string, id: string) => message(id).replace('To: help@widgets.example', `To: Widgets <${address}>`);
    const threaded = await post(to(replyAddress('help@widgets.example', token), 'pipe-thread-2'));
    expect(threaded.status, threaded.text).to.equal(201);
    expect(threaded.body).to.include({ status: 'part_added', conversation_id: first.body.conversation_id });
    const forged = await post(to(`help+${'a'.repeat(42)}@widgets.example`, 'pipe-thread-3'));
    expect(forged.status, forged.text).to.equal(201);
    expect(forged.body).to.include({ status: 'conversation_created' });
  });

  it('answers a wrong signature, a wrong content type, an api channel and an unknown id with the same empty 401', async () => {
    const api = await createChannel(t, owner);
    const answers = [
      await post(message('x1'), { secret: 'wrong-secret-0123456789' }),
      await post(message('x2'), { type: 'text/plain' }),
      await post(message('x3'), { channel: api.id, secret: api.secret }),
      await post(message('x4'), { channel: '3f1c0a52-0000-4000-8000-000000000001' }),
      await post(message('x5'), { channel: 'not-a-uuid' }),
    ];
    for (const a of answers) {
      expect(a.status).to.equal(401);
      expect(a.text).to.equal('');
    }
  });

  it('refuses a stale timestamp once the signature verifies', async () => {
    const r = await post(message('stale'), { ts: Math.floor(clock.now().getTime() / 1000) - 3600 });
    expect(r.status).to.equal(401);
    expect(r.body.errors[0].code).to.equal('stale_timestamp');
  });

  it('files a body cut inside a surrogate pair at the 65,535-unit cap (once a 500)', async () => {
    const body = `${'c'.repeat(65_534)}😀`;
    const r = await post(message('pipe-surrogate', 'Content-Type: text/plain; charset=utf-8').replace('Hello from a pipe.', body));
    expect(r.status, r.text).to.equal(201);
    const conv = await t.client.get(`/api/conversations/${r.body.conversation_id}`, { key });
    expect(conv.body.parts[0].body).to.equal('c'.repeat(65_534));
  });

  it('never answers malformed MIME with a 5xx', async () => {
    const junk: string[] = [
      '',
      'not a message at all',
      'From: \r\n\r\n',
      'Content-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: message/rfc822\r\n\r\n--x',
      'From: a@b\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!',
      '\u0000\u0001\u0002\u00ff\ufffe\u0000\r\n\r\n\u00d8\u0000',
      `From: ${'a'.repeat(5000)}@x\r\nSubject: \u0000\ud800\r\nMessage-ID: <${'<'.repeat(300)}>\r\n\r\nbody\u0000`,
      'Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n--b--',
    ];
    for (const raw of junk) {
      const r = await post(raw);
      expect(r.status, `${JSON.stringify(raw.slice(0, 40))}: ${r.text}`).to.be.oneOf([201, 202, 400]);
      if (r.status === 400) expect(r.body.errors[0].code).to.equal('invalid_mime');
    }
  });
});
