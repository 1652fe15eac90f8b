// STARTTLS on the SMTP receiver: with SMTP_TLS_CERT_FILE and SMTP_TLS_KEY_FILE
// set it is offered, and a sender that insists on TLS (nodemailer's requireTLS,
// as swaks --tls) delivers through it. The same with Debian's swaks is in
// starttls-swaks.system.test.ts.
import { expect } from 'chai';
import { sendMail } from './mail-rig.js';
import { startTlsReceiver, type TlsReceiver } from './tls-receiver.js';

describe('STARTTLS on the SMTP receiver', function () {
  this.timeout(120_000);
  let rx: TlsReceiver;
  before(async () => (rx = await startTlsReceiver('email_tls')));
  after(async () => rx?.close());

  it('offers STARTTLS and files a message delivered over it', async () => {
    const r = await sendMail(rx.port, {
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
    const rows = await rx.t.testDb.db('email_messages').where({ tenant_id: rx.owner.workspaceId, direction: 'in' });
    expect(rows).to.have.length(1);
    expect(rows[0].subject).to.equal('over TLS');
  });

  it('still takes plain SMTP from a sender that does not ask for TLS', async () => {
    const r = await sendMail(rx.port, { to: 'support@tls.example', from: 'kim@customer.example', headers: ['Subject: plain'], body: 'Plain.' });
    expect(r.accepted, r.transcript).to.equal(true);
    expect(r.secure).to.equal(false);
  });
});
