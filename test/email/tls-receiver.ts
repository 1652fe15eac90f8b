// A service whose SMTP receiver offers STARTTLS (a self-signed certificate made by
// selfsigned, no openssl), with an e-mail channel on support@tls.example: what the
// npm tier's STARTTLS test and the system tier's swaks check both start from.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { generate } from 'selfsigned';
import { mailDns, type SmtpReceiver } from '../../src/capabilities/email/index.js';
import { newWorkspace, startTestService, type Member, type TestService } from '../support/service.js';
import { zoneResolver } from './mail-rig.js';

export const TLS_ADDRESS = 'support@tls.example';

export interface TlsReceiver {
  t: TestService;
  owner: Member;
  port: number;
  close(): Promise<void>;
}

export async function startTlsReceiver(label: string): Promise<TlsReceiver> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cs-tls-'));
  const pems = await generate([{ name: 'commonName', value: 'mx.acme.example' }], { keySize: 2048, algorithm: 'sha256' });
  await writeFile(path.join(dir, 'cert.pem'), pems.cert);
  await writeFile(path.join(dir, 'key.pem'), pems.private, { mode: 0o600 });
  mailDns.resolver = zoneResolver({});
  const t = await startTestService(label, {
    env: {
      // domain ownership is email-domains.e2e's subject; here the channel only needs to exist
      EMAIL_DOMAIN_VERIFICATION: 'off',
      SMTP_PORT: '0',
      SMTP_TLS_CERT_FILE: path.join(dir, 'cert.pem'),
      SMTP_TLS_KEY_FILE: path.join(dir, 'key.pem'),
    },
  });
  const owner = await newWorkspace(t);
  const ch = await t.client.post(
    '/api/channels',
    { kind: 'email', name: 'Acme', address: TLS_ADDRESS, default_team_id: null },
    { cookie: owner.cookie, workspace: owner.workspaceId },
  );
  expect(ch.status, ch.text).to.equal(201);
  return {
    t,
    owner,
    port: (t.service.workers.find((w) => w.name === 'smtp-receiver') as SmtpReceiver).port(),
    close: async () => {
      delete mailDns.resolver;
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
