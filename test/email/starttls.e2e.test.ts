// STARTTLS on the SMTP receiver: with SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE
// set it is offered, and a sender that insists on TLS (nodemailer's requireTLS,
// as swaks --tls) delivers through it. The same with Debian's swaks is in
// starttls-swaks.system.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { generate } from 'selfsigned';
import { sendMail, zoneResolver } from './mail-rig.js';

describe('STARTTLS on the SMTP receiver', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let dir: string;
  let port: number;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-tls-'));
    // A self-signed certificate for the receiver's name.
    const pems = await generate([{ name: 'commonName', value: 'mx.acme.example' }], { keySize: 2048, algorithm: 'sha256' });
    await writeFile(path.join(dir, 'cert.pem'), pems.cert);
    await writeFile(path.join(dir, 'key.pem'), pems.private, { mode: 0o600 });
    mailDns.resolver = zoneResolver({});
    t = await startTestService('email_tls', {
      env: {
        EMAIL_DOMAIN_VERIFICATION: 'off',
        SMTP_PORT: '0',
        SMTP_TLS_CERT_FILE: path.join(dir, 'cert.pem'),
        SMTP_TLS_KEY_FILE: path.join(dir, 'key.pem'),
      },
    });
    port = (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port();
    owner = await newWorkspace(t);
    const ch = await t.client.post(
      '/api/channels',
      { kind: 'email', name: 'Acme', address: 'support@tls.example', default_team_id: null },
      { cookie: owner.cookie, workspace: owner.workspaceId },
    );
    expect(ch.status, ch.text).to.equal(201);
  });
  after(async () => {
    delete mailDns.resolver;
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('offers STARTTLS and files a message delivered over it', async () => {
    const r = await sendMail(port, {
      tls: 'require',
      to: 'support@tls.example',
      from: 'kim@customer.example',
      headers: ['Subject: over TLS'],
      body: 'Sent encrypted.',
    });
    expect(r.accepted, r.transcript).to.equal(true);
    expect(r.secure, 'the message went over TLS').to.equal(true);
    expect(r.transcript).to.match(/250[- ]STARTTLS/);
    expect(r.transcript).to.match(/220 .*TLS/i);
    const rows = await t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, direction: 'in' });
    expect(rows).to.have.length(1);
    expect(rows[0].subject).to.equal('over TLS');
  });

  it('still takes plain SMTP from a sender that does not ask for TLS', async () => {
    const r = await sendMail(port, { to: 'support@tls.example', from: 'kim@customer.example', headers: ['Subject: plain'], body: 'Plain.' });
    expect(r.accepted, r.transcript).to.equal(true);
    expect(r.secure).to.equal(false);
  });
});
