// STARTTLS interop with Debian's swaks (--tls: TLS or nothing), beside the npm
// tier's check with nodemailer (starttls.e2e.test.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { generate } from 'selfsigned';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { zoneResolver } from './mail-rig.js';
import { swaks } from './swaks.js';

describe('STARTTLS on the SMTP receiver, with swaks', function () {
  this.timeout(120_000);
  let t: TestService;
  let owner: Member;
  let dir: string;
  let port: number;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-tls-'));
    const pems = await generate([{ name: 'commonName', value: 'mx.acme.example' }], { keySize: 2048, algorithm: 'sha256' });
    await writeFile(path.join(dir, 'cert.pem'), pems.cert);
    await writeFile(path.join(dir, 'key.pem'), pems.private, { mode: 0o600 });
    mailDns.resolver = zoneResolver({});
    t = await startTestService('email_tls_swaks', {
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

  it('offers STARTTLS and files a message swaks delivered over it', async () => {
    const r = await swaks(port, [
      '--tls',
      '--to',
      'support@tls.example',
      '--from',
      'kim@customer.example',
      '--header',
      'Subject: over TLS',
      '--body',
      'Sent encrypted.',
      '--show-raw-text',
    ]);
    expect(r.code, r.output).to.equal(0);
    expect(r.output).to.match(/250[- ]STARTTLS/);
    expect(r.output).to.match(/220 .*TLS|TLS started/i);
    const rows = await t.testDb.db('email_messages').where({ tenant_id: owner.workspaceId, direction: 'in' });
    expect(rows).to.have.length(1);
    expect(rows[0].subject).to.equal('over TLS');
  });
});
