import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { authenticate } from 'mailauth';
import { ManualClock } from '../../src/platform/clock.js';
import type { DeliveryWorker } from '../../src/dispatch/delivery-worker.js';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { eventually } from '../support/events.js';
import { mintKey, newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { dkimKeys, sendMail, Sink, verifyDomainInZone, zoneResolver, type Outgoing } from './mail-rig.js';

const ADDRESS = 'support@acme.example';
const MAX_BYTES = 64 * 1024;

describe('the e-mail channel over real SMTP (an SMTP client in, a relay out)', function () {
  this.timeout(120_000);
  let t: TestService;
  let clock: ManualClock;
  let owner: Member;
  let key: string;
  let channelId: string;
  let sink: Sink;
  let smtpPort: number;
  const dkim = dkimKeys();
  const worker = () => t.service.workers.find((w) => w.name === 'webhook-delivery-worker') as DeliveryWorker;
  const kick = () => t.service.deps.db.raw("SELECT pg_notify('webhook_deliveries', '')");
  let n = 0;
  const mid = () => `<m${++n}.${Date.now()}@customer.example>`;
  const get = (path: string) => t.client.get(path, { key });
  const conversationOfPart = async (partId: string) =>
    (await t.testDb.db('conversation_parts').where({ tenant_id: owner.workspaceId, id: partId }).first())?.conversation_id as string;
  const lastInbound = async () =>
    (await t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, direction: 'in' }).orderBy('created_at', 'desc').first()) as {
      part_id: string;
      conversation_id: string;
      suspicious: boolean;
      automated: boolean;
      threaded_by: string;
    };
  // Each message a second later: the read model orders them by the time they were filed.
  const send = (o: Outgoing) => {
    clock.advance(1000);
    return sendMail(smtpPort, o);
  };
  const mail = (o: { from?: string; to?: string; subject?: string; id?: string; body?: string; headers?: string[] }) =>
    send({
      to: o.to ?? ADDRESS,
      from: o.from ?? 'grace@customer.example',
      headers: [
        `From: "Grace Hopper" <${o.from ?? 'grace@customer.example'}>`,
        `Subject: ${o.subject ?? 'My order'}`,
        `Message-Id: ${o.id ?? mid()}`,
        ...(o.headers ?? []),
      ],
      body: o.body ?? 'Where is my order?',
    });
  const reply = async (conversationId: string, body: string) => {
    const r = await t.client.post(`/api/conversations/${conversationId}/reply`, { body, message_type: 'comment' }, { key });
    expect(r.status, r.text).to.equal(201);
    return r.body.id as string;
  };

  const records: Record<string, string> = {};

  before(async () => {
    sink = await new Sink().start();
    const zone = zoneResolver(records);
    Object.assign(records, {
      'customer.example': 'v=spf1 ip4:127.0.0.1 -all',
      '_dmarc.customer.example': 'v=DMARC1; p=none',
      'bank.example': 'v=spf1 ip4:192.0.2.1 -all',
      '_dmarc.bank.example': 'v=DMARC1; p=reject; aspf=s',
      'acme.example': 'v=spf1 ip4:127.0.0.1 -all',
      '_dmarc.acme.example': 'v=DMARC1; p=reject',
      'sel2026._domainkey.acme.example': `v=DKIM1; k=rsa; p=${dkim.publicKey}`,
    } satisfies Record<string, string>);
    // outage.example's name servers fail (SERVFAIL): every look-up under it is a temperror.
    mailDns.resolver = (name, rr) =>
      /(^|\.)outage\.example$/i.test(name) ? Promise.reject(Object.assign(new Error(`SERVFAIL ${name}`), { code: 'ESERVFAIL' })) : zone(name, rr);
    clock = new ManualClock(new Date());
    t = await startTestService('email', {
      clock,
      env: { SMTP_PORT: '0', SMTP_MAX_BYTES: String(MAX_BYTES), SMTP_RELAY_URL: `smtp://127.0.0.1:${sink.port}`, WEBHOOK_RETRY_BASE_SECONDS: '1' },
    });
    smtpPort = (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port();
    owner = await newWorkspace(t);
    key = (
      await mintKey(t, owner, [
        'conversations:read',
        'conversations:write',
        'contacts:read',
        'contacts:write',
        'contacts:delete',
        'events:read',
        'settings:read',
      ])
    ).secret;
    // The workspace proves it owns acme.example (its TXT record in the test's zone) before it may receive there.
    await verifyDomainInZone(t, { cookie: owner.cookie, workspace: owner.workspaceId }, records, 'acme.example');
    const ch = await t.client.post(
      '/api/channels',
      { kind: 'email', name: 'Acme Support', address: ADDRESS, default_team_id: null, dkim: { selector: 'sel2026', private_key: dkim.privateKey } },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(ch.status, ch.text).to.equal(201);
    expect(ch.body).to.include({ kind: 'email', address: ADDRESS, dkim_selector: 'sel2026' });
    expect(JSON.stringify(ch.body)).not.to.include('PRIVATE KEY');
    channelId = ch.body.id;
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
    await sink?.close();
  });

  it('opens a conversation for a new message: subject, contact from From, the text as the part', async () => {
    const r = await mail({ subject: 'Order 1234 has not arrived', body: 'Hello, where is order 1234?' });
    expect(r.accepted, r.transcript).to.equal(true);
    const m = await lastInbound();
    const conv = await get(`/api/conversations/${m.conversation_id}`);
    expect(conv.status).to.equal(200);
    expect(conv.body).to.include({ subject: 'Order 1234 has not arrived', channel_id: channelId, state: 'open' });
    expect(conv.body.parts.map((p: { body: string }) => p.body.trim())).to.deep.equal(['Hello, where is order 1234?']);
    const contact = await get(`/api/contacts/${conv.body.contact_id}`);
    expect(contact.body).to.include({ email: 'grace@customer.example', name: 'Grace Hopper' });
    const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
    expect(email.status, email.text).to.equal(200);
    expect(email.body).to.include({ direction: 'in', threaded_by: 'new', suspicious: false, automated: false });
    expect(email.body.authentication).to.deep.equal({ spf: 'pass', dkim: 'none', dmarc: 'pass' });
  });

  it('threads a reply by In-Reply-To, and one to the reply address, never by subject', async () => {
    const first = mid();
    expect((await mail({ id: first, subject: 'Threading' })).accepted).to.equal(true);
    const root = await lastInbound();
    expect((await mail({ subject: 'Something else entirely', headers: [`In-Reply-To: ${first}`], body: 'Any news?' })).accepted).to.equal(true);
    const second = await lastInbound();
    expect(second.conversation_id).to.equal(root.conversation_id);
    expect(second.threaded_by).to.equal('in_reply_to');
    // Knowing the conversation id is not enough: the unsigned form of earlier versions and a forged tag thread nowhere.
    for (const forged of [`support+c.${root.conversation_id.replace(/-/g, '')}@acme.example`, `support+${'a'.repeat(42)}@acme.example`]) {
      const r = await mail({ to: forged, subject: 'Threading', body: 'Let me in' });
      expect(r.accepted, r.transcript).to.equal(true);
      expect(await lastInbound(), forged)
        .to.include({ threaded_by: 'new' })
        .and.not.include({ conversation_id: root.conversation_id });
    }
    // Same subject, no threading headers: a conversation of its own.
    expect((await mail({ subject: 'Threading' })).accepted).to.equal(true);
    expect((await lastInbound()).conversation_id).not.to.equal(root.conversation_id);
  });

  it('files a duplicate Message-ID (an MTA retry) once', async () => {
    const id = mid();
    expect((await mail({ id, body: 'once' })).accepted).to.equal(true);
    const head = await t.service.deps.store.head(owner.workspaceId);
    const again = await mail({ id, body: 'once' });
    expect(again.accepted, again.transcript).to.equal(true);
    expect(await t.service.deps.store.head(owner.workspaceId)).to.equal(head);
  });

  it('refuses an unknown recipient with 550 5.1.1 and an oversized message with 552', async () => {
    const unknown = await mail({ to: 'nobody@acme.example' });
    expect(unknown, unknown.transcript).to.include({ accepted: false, refusedAt: 'rcpt', code: 550 });
    expect(unknown.response).to.match(/^550 5\.1\.1/);
    const big = await mail({ body: 'x'.repeat(MAX_BYTES + 1000) });
    expect(big, big.transcript).to.include({ accepted: false, refusedAt: 'data', code: 552 });
  });

  it('files an HTML-only message as text, its HTML sanitised', async () => {
    const r = await send({
      to: ADDRESS,
      from: 'grace@customer.example',
      headers: ['Subject: html only', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=utf-8'],
      body: '<p>Hello <b>there</b></p><script>alert(1)</script><img src="x" onerror="alert(2)">',
    });
    expect(r.accepted, r.transcript).to.equal(true);
    const m = await lastInbound();
    const conv = await get(`/api/conversations/${m.conversation_id}`);
    expect(conv.body.parts[0].body).to.match(/Hello there/);
    const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
    expect(email.body.html).to.include('<b>there</b>');
    expect(email.body.html).not.to.match(/script|onerror|alert/);
  });

  it('separates the quoted history from the new text', async () => {
    const body = 'Thanks, that worked.\n\nOn Tue, 1 Sep 2026 at 10:00, Acme Support <support@acme.example> wrote:\n> It ships today.\n> Regards';
    expect((await mail({ body })).accepted).to.equal(true);
    const m = await lastInbound();
    const conv = await get(`/api/conversations/${m.conversation_id}`);
    expect(conv.body.parts[0].body).to.equal('Thanks, that worked.');
    const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
    expect(email.body.quoted).to.match(/^On Tue.*wrote:\n> It ships today\.\n> Regards$/);
  });

  it('serves an attachment to download (attachment, nosniff), and erasing the contact leaves none of it', async () => {
    const bytes = Buffer.from('<html><script>alert(1)</script>invoice 42</html>');
    const r = await send({
      to: ADDRESS,
      from: 'erin@customer.example',
      headers: ['From: Erin <erin@customer.example>', 'Cc: Finn Partner <finn@partner.example>, accounts@partner.example', 'Subject: invoice attached'],
      body: 'See the invoice.',
      attachments: [{ filename: 'invoice.html', contentType: 'application/octet-stream', content: bytes }],
    });
    expect(r.accepted, r.transcript).to.equal(true);
    const m = await lastInbound();
    const conv = await get(`/api/conversations/${m.conversation_id}`);
    const part = conv.body.parts[0];
    expect(part.attachments).to.have.length(1);
    expect(part.attachments[0]).to.include({ name: 'invoice.html', content_type: 'text/html', size: bytes.length });
    const download = await get(part.attachments[0].url);
    expect(download.status).to.equal(200);
    expect(download.headers.get('content-disposition')).to.match(/^attachment; filename="invoice.html"/);
    expect(download.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(download.text).to.equal(bytes.toString());
    const sealed = await t.testDb.db('email_attachments').where({ tenant_id: owner.workspaceId, part_id: m.part_id });
    expect(sealed).to.have.length(1);
    expect(sealed[0].sealed).not.to.include('invoice');
    // Cc is recorded on the part, sealed in the log like the other addresses.
    const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
    expect(email.body.cc).to.deep.equal([
      { address: 'finn@partner.example', name: 'Finn Partner' },
      { address: 'accounts@partner.example', name: null },
    ]);
    const logged = await t.testDb.db.raw("SELECT payload::text AS p FROM events WHERE tenant_id = ? AND type = 'email.received'", [owner.workspaceId]);
    expect((logged.rows as { p: string }[]).map((r) => r.p).join('\n')).not.to.match(/finn/i);

    const erased = await t.client.delete(`/api/contacts/${conv.body.contact_id}`, { key });
    expect(erased.status, erased.text).to.equal(200);
    expect((await get(part.attachments[0].url)).status).to.equal(404);
    expect(await t.testDb.db('email_attachments').where({ tenant_id: owner.workspaceId, part_id: m.part_id })).to.have.length(0);
    const row = await t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, part_id: m.part_id }).first();
    expect(row).to.include({ from_address: null, subject: null, message_id: null, html: null, quoted: null, attachments: null });
    // What a database dump would hold of it: the read models, the attachments beside the log, and the log itself.
    for (const table of ['email_messages', 'email_attachments', 'conversations', 'conversation_parts', 'contacts', 'events']) {
      const rows = await t.testDb.db.raw(`SELECT row_to_json(x)::text AS j FROM ${table} x WHERE tenant_id = ?`, [owner.workspaceId]);
      const text = (rows.rows as { j: string }[]).map((r) => r.j).join('\n');
      // Markers no ciphertext can hold by chance (base64 has no '@', ' ', '.' or '"'): a bare /erin/i matched a
      // sealed payload's random base64 once.
      expect(text, table).not.to.match(/erin@customer\.example|"Erin"|finn@partner\.example|Finn Partner|invoice 42|invoice\.html/i);
    }
  });

  it('files a DMARC-failing sender flagged, and never threads it', async () => {
    const first = mid();
    expect((await mail({ id: first, subject: 'real thread' })).accepted).to.equal(true);
    const root = await lastInbound();
    const spoof = await send({
      to: ADDRESS,
      from: 'ceo@bank.example',
      headers: ['From: CEO <ceo@bank.example>', 'Subject: Re: real thread', `In-Reply-To: ${first}`],
      body: 'Wire the money.',
    });
    expect(spoof.accepted, spoof.transcript).to.equal(true);
    const m = await lastInbound();
    expect(m.conversation_id).not.to.equal(root.conversation_id);
    expect(m.suspicious).to.equal(true);
    const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
    expect(email.body.authentication).to.include({ spf: 'fail', dmarc: 'fail' });
    expect(email.body.from).to.deep.equal({ address: 'ceo@bank.example', name: 'CEO' });
  });

  it('files DMARC-failing mail under an unverified contact, never in the history of the contact holding its From', async () => {
    const real = await t.client.post('/api/contacts', { email: 'cfo@bank.example', name: 'The real CFO' }, { key });
    expect(real.status, real.text).to.equal(201);
    const spoof = (body: string) => send({ to: ADDRESS, from: 'cfo@bank.example', headers: ['From: CFO <cfo@bank.example>', 'Subject: Urgent'], body });
    expect((await spoof('Change my bank details.')).accepted).to.equal(true);
    const m = await lastInbound();
    expect(m.suspicious).to.equal(true);
    const conv = (await get(`/api/conversations/${m.conversation_id}`)).body;
    expect(conv.contact_id).not.to.equal(real.body.id);
    const unverified = (await get(`/api/contacts/${conv.contact_id}`)).body;
    expect(unverified).to.include({ email: null, name: 'CFO', external_id: 'unverified-email:cfo@bank.example' });
    expect(conv.parts[0].author).to.deep.include({ type: 'contact', id: conv.contact_id });
    // The real contact's history has none of it, and keeps its own name.
    expect((await get(`/api/conversations?contact_id=${real.body.id}`)).body.data).to.deep.equal([]);
    expect((await get(`/api/contacts/${real.body.id}`)).body).to.include({ email: 'cfo@bank.example', name: 'The real CFO' });
    // A second one goes to the same unverified contact, in a conversation of its own again.
    expect((await spoof('Really, change them.')).accepted).to.equal(true);
    const again = await lastInbound();
    expect(again.conversation_id).not.to.equal(m.conversation_id);
    expect((await get(`/api/conversations/${again.conversation_id}`)).body.contact_id).to.equal(conv.contact_id);
    // A teammate may still answer: the reply goes to the address the message came from.
    await reply(m.conversation_id, 'We never change bank details by e-mail.');
    await eventually(
      () => sink.to('cfo@bank.example'),
      (r) => r.length === 1,
    );
  });

  it('files mail without exactly one From author (RFC 7489 §6.6.1) flagged, unthreaded, never as the real contact', async () => {
    const real = await t.client.post('/api/contacts', { email: 'ceo@customer.example', name: 'The real CEO' }, { key });
    expect(real.status, real.text).to.equal(201);
    const first = mid();
    expect((await mail({ from: 'ceo@customer.example', id: first, subject: 'board meeting' })).accepted).to.equal(true);
    const root = await lastInbound();
    expect(root.suspicious).to.equal(false);
    const forms: [string, string[]][] = [
      ['group syntax', ['From: grp: CEO <ceo@customer.example>;']],
      ['two addresses', ['From: CEO <ceo@customer.example>, x <x@evil.example>']],
      ['two From headers', ['From: CEO <ceo@customer.example>', 'From: x <x@evil.example>']],
    ];
    for (const [form, from] of forms) {
      const r = await send({
        to: ADDRESS,
        from: 'ceo@customer.example',
        headers: [...from, 'Subject: Re: board meeting', `In-Reply-To: ${first}`, `Message-Id: ${mid()}`],
        body: `Wire the money (${form}).`,
      });
      expect(r.accepted, r.transcript).to.equal(true);
      const m = await lastInbound();
      expect(m.conversation_id, form).not.to.equal(root.conversation_id);
      expect(m.suspicious, form).to.equal(true);
      expect(m.threaded_by, form).to.equal('new');
      const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
      expect(email.body.authentication.dmarc, form).to.equal('permerror');
      expect((await get(`/api/conversations/${m.conversation_id}`)).body.contact_id, form).not.to.equal(real.body.id);
    }
    // The real contact's history holds its own message only.
    const own = (await get(`/api/conversations?contact_id=${real.body.id}`)).body.data as { id: string }[];
    expect(own.map((c) => c.id)).to.deep.equal([root.conversation_id]);
  });

  it('files mail whose DMARC look-up failed (temperror) flagged and unthreaded, not as authenticated', async () => {
    const real = await t.client.post('/api/contacts', { email: 'vip@outage.example', name: 'The real VIP' }, { key });
    expect(real.status, real.text).to.equal(201);
    const r = await send({ to: ADDRESS, from: 'vip@outage.example', headers: ['From: VIP <vip@outage.example>', 'Subject: Urgent'], body: 'Pay now.' });
    expect(r.accepted, r.transcript).to.equal(true);
    const m = await lastInbound();
    expect(m.suspicious).to.equal(true);
    const email = await get(`/api/conversations/${m.conversation_id}/parts/${m.part_id}/email`);
    expect(email.body.authentication.dmarc).to.equal('temperror');
    expect((await get(`/api/conversations/${m.conversation_id}`)).body.contact_id).not.to.equal(real.body.id);
  });

  it("sends a teammate's reply through the relay: headers and a DKIM signature mailauth verifies", async () => {
    const first = mid();
    expect((await mail({ id: first, subject: 'Need help', from: 'ada@customer.example' })).accepted).to.equal(true);
    const m = await lastInbound();
    const partId = await reply(m.conversation_id, 'It ships today.');
    const [out] = await eventually(
      () => sink.to('ada@customer.example'),
      (r) => r.length === 1,
    );
    const mailOut = out!.mail;
    expect(mailOut.from?.value[0]).to.deep.include({ address: ADDRESS, name: 'Acme Support' });
    const replyTo = mailOut.replyTo?.value[0]?.address ?? '';
    expect(replyTo).to.match(/^support\+[a-z2-7]{42}@acme\.example$/);
    expect(replyTo).not.to.include(m.conversation_id.replace(/-/g, ''));
    expect(mailOut.subject).to.equal('Re: Need help');
    expect(mailOut.messageId).to.equal(`<p.${partId}@acme.example>`);
    expect(mailOut.inReplyTo).to.equal(first);
    expect([mailOut.references].flat()).to.include(first);
    expect(mailOut.text?.trim()).to.equal('It ships today.');
    expect(out!.raw.toString()).to.match(/^DKIM-Signature:/im);
    const auth = await authenticate(out!.raw, {
      ip: '127.0.0.1',
      helo: 'mta.example.test',
      sender: out!.from,
      mta: 'mx.customer.example',
      resolver: mailDns.resolver ?? zoneResolver({}),
    });
    expect(auth.dkim.results.map((r) => (r as { status: { result: string } }).status.result)).to.deep.equal(['pass']);
    expect(auth.dmarc && auth.dmarc.status.result).to.equal('pass');
    // The customer's answer to it threads by In-Reply-To naming our Message-ID.
    expect((await mail({ from: 'ada@customer.example', subject: 'Re: Need help', headers: [`In-Reply-To: <p.${partId}@acme.example>`] })).accepted).to.equal(
      true,
    );
    expect((await lastInbound()).conversation_id).to.equal(m.conversation_id);
    // One sent to the reply address threads by it alone (a client that dropped In-Reply-To), whatever the case of its local part.
    const viaAddress = await mail({ from: 'ada@customer.example', to: replyTo.toUpperCase(), subject: 'new subject', body: 'Via the reply address' });
    expect(viaAddress.accepted, viaAddress.transcript).to.equal(true);
    expect(await lastInbound()).to.include({ conversation_id: m.conversation_id, threaded_by: 'reply_address' });
  });

  it("sends a reply's uploaded files as MIME attachments, byte for byte, under the same DKIM signature", async () => {
    expect((await mail({ subject: 'Send the report', from: 'grace@customer.example' })).accepted).to.equal(true);
    const m = await lastInbound();
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(100_000)]);
    const up = await t.client.post('/api/uploads?filename=report.pdf', undefined, { key, bytes });
    expect(up.status, up.text).to.equal(201);
    const r = await t.client.post(
      `/api/conversations/${m.conversation_id}/reply`,
      { message_type: 'comment', body: 'Attached.', upload_ids: [up.body.id] },
      { key },
    );
    expect(r.status, r.text).to.equal(201);
    const [out] = await eventually(
      () => sink.to('grace@customer.example'),
      (x) => x.length === 1,
    );
    const files = out!.mail.attachments;
    expect(files.map((a) => [a.filename, a.contentType, a.contentDisposition])).to.deep.equal([['report.pdf', 'application/pdf', 'attachment']]);
    expect(files[0]!.content.equals(bytes), 'the same bytes').to.equal(true);
    expect(out!.mail.text?.trim()).to.equal('Attached.');
    const auth = await authenticate(out!.raw, {
      ip: '127.0.0.1',
      helo: 'mta.example.test',
      sender: out!.from,
      mta: 'mx.customer.example',
      resolver: mailDns.resolver ?? zoneResolver({}),
    });
    expect(auth.dkim.results.map((x) => (x as { status: { result: string } }).status.result)).to.deep.equal(['pass']);
  });

  it("files mail answering a merged conversation's messages in the conversation it was merged into", async () => {
    const first = mid();
    expect((await mail({ id: first, subject: 'Merge me', from: 'hedy@customer.example' })).accepted).to.equal(true);
    const a = await lastInbound();
    expect((await mail({ subject: 'Another thing', from: 'hedy@customer.example' })).accepted).to.equal(true);
    const b = await lastInbound();
    expect(b.conversation_id).to.not.equal(a.conversation_id);
    const merged = await t.client.post(`/api/conversations/${a.conversation_id}/merge`, { into: b.conversation_id }, { key });
    expect(merged.status, merged.text).to.equal(200);
    expect((await mail({ subject: 'Re: Merge me', from: 'hedy@customer.example', headers: [`In-Reply-To: ${first}`] })).accepted).to.equal(true);
    expect(await lastInbound()).to.include({ conversation_id: b.conversation_id, threaded_by: 'in_reply_to' });
  });

  it("files mail from a merged contact's address under the contact it was merged into", async () => {
    expect((await mail({ subject: 'From my old address', from: 'old-ada@customer.example' })).accepted).to.equal(true);
    const first = await lastInbound();
    const merged = (await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId, id: first.conversation_id }).first()).contact_id as string;
    const survivor = await t.client.post('/api/contacts', { email: 'ada.new@customer.example', name: 'Ada' }, { key });
    expect(survivor.status, survivor.text).to.equal(201);
    const r = await t.client.post(`/api/contacts/${merged}/merge`, { into: survivor.body.id }, { key });
    expect(r.status, r.text).to.equal(200);
    expect((await mail({ subject: 'A new question', from: 'old-ada@customer.example' })).accepted).to.equal(true);
    const next = await lastInbound();
    expect(next.conversation_id).to.not.equal(first.conversation_id);
    const filedUnder = (await t.testDb.db('conversations').where({ tenant_id: owner.workspaceId, id: next.conversation_id }).first()).contact_id;
    expect(filedUnder).to.equal(survivor.body.id);
  });

  it('does not reopen or answer on an auto-reply', async () => {
    expect((await mail({ from: 'vic@customer.example', subject: 'Question' })).accepted).to.equal(true);
    const m = await lastInbound();
    const partId = await reply(m.conversation_id, 'Here is the answer.');
    await eventually(
      () => sink.to('vic@customer.example'),
      (r) => r.length === 1,
    );
    const closed = await t.client.post(`/api/conversations/${m.conversation_id}/parts`, { message_type: 'close' }, { key });
    expect(closed.status, closed.text).to.equal(201);
    const auto = await mail({
      from: 'vic@customer.example',
      subject: 'Out of office',
      headers: ['Auto-Submitted: auto-replied', `In-Reply-To: <p.${partId}@acme.example>`],
      body: 'I am away until Monday.',
    });
    expect(auto.accepted, auto.transcript).to.equal(true);
    const a = await lastInbound();
    expect(a).to.include({ conversation_id: m.conversation_id, automated: true });
    expect((await get(`/api/conversations/${m.conversation_id}`)).body.state).to.equal('closed');
    await worker().settled();
    expect(sink.to('vic@customer.example')).to.have.length(1);
  });

  it('retries a relay 4xx, and marks a 5xx delivery_failed with the relay answer', async () => {
    expect((await mail({ from: 'flaky451@customer.example', subject: 'flaky' })).accepted).to.equal(true);
    const flaky = await lastInbound();
    await reply(flaky.conversation_id, 'Try one.');
    const deliveries = async () =>
      (await get(`/api/channels/${channelId}/deliveries`)).body.data as { attempts: number; state: string; last_error: string | null; seq: number }[];
    await eventually(deliveries, (d) => d.some((x) => x.attempts === 1 && x.state === 'pending'));
    clock.advance(2000);
    await kick();
    await eventually(
      () => sink.to('flaky451@customer.example'),
      (r) => r.length === 1,
    );
    await eventually(deliveries, (d) => d.some((x) => x.attempts === 2 && x.state === 'delivered'));

    expect((await mail({ from: 'data550@customer.example', subject: 'bounce me' })).accepted).to.equal(true);
    const bad = await lastInbound();
    const partId = await reply(bad.conversation_id, 'This will not arrive.');
    await eventually(
      () => t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, part_id: partId }).first(),
      (row) => row?.delivery_status === 'failed',
    );
    const email = await get(`/api/conversations/${bad.conversation_id}/parts/${partId}/email`);
    expect(email.body.delivery).to.deep.equal({ status: 'failed', code: 550, error: email.body.delivery.error });
    expect(email.body.delivery.error).to.match(/550 5\.1\.1 No such user/);
    const feed = await get('/api/events?after_seq=0&types=conversation_part.delivery_failed&per_page=100');
    expect(feed.body.data.map((e: { payload: { part_id: string; reason: string } }) => [e.payload.part_id, e.payload.reason])).to.deep.include([
      partId,
      'rejected',
    ]);
    const dead = (await deliveries()).filter((d) => d.state === 'dead');
    expect(dead).to.have.length(1);
    expect(dead[0]!.attempts).to.equal(1);
  });

  it("attaches a bounce sent to the reply's own return path (VERP) to it; a forged one changes nothing", async () => {
    expect((await mail({ from: 'lea@customer.example', subject: 'bounce later' })).accepted).to.equal(true);
    const m = await lastInbound();
    const partId = await reply(m.conversation_id, 'You will not get this.');
    const [out] = await eventually(
      () => sink.to('lea@customer.example'),
      (r) => r.length === 1,
    );
    await eventually(
      () => t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, part_id: partId }).first(),
      (row) => row?.delivery_status === 'sent',
    );
    const head = await t.service.deps.store.head(owner.workspaceId);
    const dsn = (to: string) =>
      [
        'From: Mail Delivery System <MAILER-DAEMON@mta.customer.example>',
        `To: ${to}`,
        'Subject: Undelivered Mail Returned to Sender',
        'Auto-Submitted: auto-replied',
        `Message-Id: ${mid()}`,
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
        '',
        '--B',
        'Content-Type: text/plain',
        '',
        'Your message could not be delivered.',
        '--B',
        'Content-Type: message/delivery-status',
        '',
        'Reporting-MTA: dns; mta.customer.example',
        '',
        'Final-Recipient: rfc822; lea@customer.example',
        'Action: failed',
        'Status: 5.1.1',
        'Diagnostic-Code: smtp; 550 5.1.1 <lea@customer.example>: mailbox unavailable',
        '',
        '--B',
        'Content-Type: text/rfc822-headers',
        '',
        `Message-Id: <p.${partId}@acme.example>`,
        `From: ${ADDRESS}`,
        'Subject: Re: bounce later',
        '',
        '--B--',
        '',
      ].join('\r\n');
    // Forged: the report names the reply's Message-ID (which the customer sees), sent to the support address, to the
    // conversation's reply address, and to a bounce address whose tag was altered. Taken (250) and dropped.
    const forged = await send({ to: ADDRESS, from: '', data: dsn(ADDRESS) });
    expect(forged.accepted, forged.transcript).to.equal(true);
    expect(await t.service.deps.store.readTenant(owner.workspaceId, head, 100)).to.deep.equal([]);
    // The reply's return path is its own bounce address: the support mailbox tagged for this part, not its Reply-To.
    const returnPath = out!.from;
    const replyTo = out!.mail.replyTo!.value[0]!.address!;
    expect(returnPath).to.match(/^support\+[a-z2-7]{42}@acme\.example$/);
    expect(returnPath).not.to.equal(replyTo);
    const local = returnPath.split('@')[0]!;
    const altered = `${local.slice(0, -1)}${local.endsWith('a') ? 'b' : 'a'}@acme.example`;
    for (const to of [replyTo, altered]) {
      const again = await send({ to, from: '', data: dsn(to) });
      expect(again.accepted, again.transcript).to.equal(true);
    }
    expect(await t.service.deps.store.readTenant(owner.workspaceId, head, 100)).to.deep.equal([]);
    expect((await get(`/api/conversations/${m.conversation_id}/parts/${partId}/email`)).body.delivery.status).to.equal('sent');
    const r = await send({ to: returnPath, from: '', data: dsn(returnPath) });
    expect(r.accepted, r.transcript).to.equal(true);
    const events = await t.service.deps.store.readTenant(owner.workspaceId, head, 100);
    expect(events.map((e) => e.type)).to.deep.equal(['conversation_part.delivery_failed']);
    expect(events[0]!.payload).to.include({ part_id: partId, reason: 'bounced', status: 550 });
    expect(await conversationOfPart(partId)).to.equal(m.conversation_id);
  });

  it("sends no automation rule's reply: the comment stays in the conversation, and the channel's delivery of it says why", async () => {
    const admin = { cookie: owner.cookie, workspace: owner.workspaceId };
    const saved = await t.client.post('/api/saved-replies', { name: 'Auto ack', body: 'We got your message.' }, admin);
    expect(saved.status, saved.text).to.equal(201);
    const rule = await t.client.post(
      '/api/automation_rules',
      {
        name: 'Acknowledge',
        on: ['conversation.created'],
        if: { field: 'subject', operator: '=', value: 'Rule me' },
        then: [{ reply_with: saved.body.id }],
      },
      admin,
    );
    expect(rule.status, rule.text).to.equal(201);
    try {
      expect((await mail({ subject: 'Rule me', from: 'ruled@customer.example' })).accepted).to.equal(true);
      const m = await lastInbound();
      const comment = await eventually(
        async () => (await get(`/api/conversations/${m.conversation_id}`)).body.parts.find((p: { part_type: string }) => p.part_type === 'comment'),
        (p) => p !== undefined,
      );
      expect(comment).to.deep.include({ body: 'We got your message.', author: { type: 'system', id: `rule:${rule.body.id}` } });
      const [event] = await t.testDb
        .db('events')
        .where({ tenant_id: owner.workspaceId, type: 'conversation_part.created' })
        .whereRaw("payload->>'part_id' = ?", [comment.id]);
      const delivery = await eventually(
        async () =>
          (await t.client.get(`/api/channels/${channelId}/deliveries?per_page=100`, admin)).body.data.find(
            (d: { seq: number }) => d.seq === Number(event!.seq),
          ),
        (d) => d?.state === 'dead',
      );
      expect(delivery.last_error).to.equal('an e-mail channel sends no automatic reply: the comment stays in the conversation');
      expect(sink.to('ruled@customer.example')).to.deep.equal([]);
    } finally {
      await t.client.delete(`/api/automation_rules/${rule.body.id}`, admin);
    }
  });
});
