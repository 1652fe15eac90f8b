// STARTTLS interop with Debian's swaks (--tls: TLS or nothing), beside the npm
// tier's check with nodemailer (starttls.e2e.test.ts).
import { expect } from 'chai';
import { swaks } from './swaks.js';
import { startTlsReceiver, type TlsReceiver } from './tls-receiver.js';

describe('STARTTLS on the SMTP receiver, with swaks', function () {
  this.timeout(120_000);
  let rx: TlsReceiver;
  before(async () => (rx = await startTlsReceiver('email_tls_swaks')));
  after(async () => rx?.close());

  it('offers STARTTLS and files a message swaks delivered over it', async () => {
    const r = await swaks(rx.port, [
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
    const rows = await rx.t.testDb.db('email_messages').where({ tenant_id: rx.owner.workspaceId, direction: 'in' });
    expect(rows).to.have.length(1);
    expect(rows[0].subject).to.equal('over TLS');
  });
});
