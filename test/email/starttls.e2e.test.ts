// STARTTLS on the SMTP receiver: with SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE
// set it is offered, and swaks delivers through it (--tls: TLS or nothing).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { swaks, zoneResolver } from './mail-rig.js';

describe('STARTTLS on the SMTP receiver', function () {
  this.timeout(60_000);
  let t: TestService;
  let owner: Member;
  let dir: string;
  let port: number;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-tls-'));
    // A self-signed certificate for the receiver's name.
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=mx.acme.example', '-keyout', 'key.pem', '-out', 'cert.pem'],
      { cwd: dir, stdio: 'ignore' },
    );
    mailDns.resolver = zoneResolver({});
    t = await startTestService('email_tls', {
      env: { SMTP_PORT: '0', SMTP_TLS_CERT_FILE: path.join(dir, 'cert.pem'), SMTP_TLS_KEY_FILE: path.join(dir, 'key.pem') },
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

  it('still takes plain SMTP from a sender that does not ask for TLS', async () => {
    const r = await swaks(port, ['--to', 'support@tls.example', '--from', 'kim@customer.example', '--header', 'Subject: plain', '--body', 'Plain.']);
    expect(r.code, r.output).to.equal(0);
  });
});
