// The relay client (src/platform/mail/relay.ts) against a real SMTP server: what
// it sends arrives byte for byte under the relay's credentials, and a refusal
// keeps the relay's code (4xx: try again, 5xx: never).
import { expect } from 'chai';
import { MailRefused, smtpRelay } from '../../src/platform/mail/relay.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';

describe('SMTP relay client (int)', function () {
  let smtp: SmtpReceiver;
  before(async () => {
    smtp = await new SmtpReceiver().start();
  });
  after(async () => smtp.close());

  it('sends a message through the relay, authenticated, with the given headers', async () => {
    const relay = smtpRelay(smtp.url, { from: 'Support <no-reply@service.example>' });
    const sent = await relay.send({
      to: 'ada@example.com',
      subject: 'Hello',
      text: 'First line\nsecond line',
      messageId: '<m1@service.example>',
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    expect(sent.messageId).to.equal('<m1@service.example>');
    expect(sent.response).to.match(/^250/);
    const [m] = await smtp.waitFor(1);
    expect(m!.user).to.equal('relay-user');
    expect(m!.from).to.equal('no-reply@service.example');
    expect(m!.to).to.deep.equal(['ada@example.com']);
    expect(m!.raw).to.match(/^From: Support <no-reply@service\.example>\r$/m);
    expect(m!.raw).to.match(/^To: ada@example\.com\r$/m);
    expect(m!.raw).to.match(/^Subject: Hello\r$/m);
    expect(m!.raw).to.match(/^Message-ID: <m1@service\.example>\r$/m);
    expect(m!.raw).to.match(/^Auto-Submitted: auto-generated\r$/m);
    expect(m!.raw).to.include('First line\r\nsecond line');
  });

  it('keeps the code of a refusal: 4xx temporary, 5xx permanent; an unreachable relay has none', async () => {
    const relay = smtpRelay(smtp.url, { from: 'no-reply@service.example' });
    const refusal = async () => {
      try {
        await relay.send({ to: 'x@example.com', subject: 's', text: 't' });
      } catch (e) {
        return e as MailRefused;
      }
      throw new Error('sent');
    };
    smtp.refuse = () => 451;
    const temporary = await refusal();
    expect(temporary).to.be.instanceOf(MailRefused);
    expect(temporary).to.include({ code: 451, permanent: false });
    smtp.refuse = () => 550;
    expect(await refusal()).to.include({ code: 550, permanent: true });
    smtp.refuse = () => null;

    const nowhere = smtpRelay('smtp://127.0.0.1:9', { from: 'no-reply@service.example', timeoutMs: 2000 });
    const e = await nowhere.send({ to: 'x@example.com', subject: 's', text: 't' }).then(
      () => null,
      (err: unknown) => err as MailRefused,
    );
    expect(e).to.be.instanceOf(MailRefused);
    expect(e).to.include({ code: null, permanent: false });
  });

  it('is refused with the relay code when the credentials are wrong', async () => {
    const relay = smtpRelay(`smtp://relay-user:wrong@127.0.0.1:${smtp.port}`, { from: 'no-reply@service.example' });
    const e = await relay.send({ to: 'x@example.com', subject: 's', text: 't' }).then(
      () => null,
      (err: unknown) => err as MailRefused,
    );
    expect(e).to.include({ code: 535, permanent: true });
  });
});
