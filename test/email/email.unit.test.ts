import { expect } from 'chai';
import { baseAddress, conversationOfReplyAddress, replyAddress } from '../../src/capabilities/email/addresses.js';
import { decideInboundEmail, type InboundEmail, type InboundEmailState } from '../../src/capabilities/email/email.decider.js';
import { cleanHtml, messageIdHash, parseEmail, splitQuoted, storable } from '../../src/capabilities/email/mime.js';

const cmd = (over: Partial<InboundEmail> = {}): InboundEmail => ({
  channelId: '00000000-0000-4000-8000-00000000000c',
  defaultTeamId: null,
  conversationId: '00000000-0000-4000-8000-0000000000a1',
  contactId: '00000000-0000-4000-8000-0000000000b1',
  partId: '00000000-0000-4000-8000-0000000000d1',
  messageId: '<m1@customer.example>',
  messageIdHash: messageIdHash('<m1@customer.example>'),
  from: { address: 'grace@customer.example', name: 'Grace' },
  to: [],
  cc: [],
  subject: 'Hi',
  text: 'Hello',
  quoted: null,
  html: null,
  attachments: [],
  authentication: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
  automated: false,
  at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const state = (over: Partial<InboundEmailState> = {}): InboundEmailState => ({
  duplicate: false,
  thread: null,
  contact: null,
  defaultTeamExists: false,
  ...over,
});
const thread = { id: '00000000-0000-4000-8000-0000000000ff', state: 'closed' as const, by: 'in_reply_to' as const };

describe('e-mail channel rules (unit)', () => {
  it('files nothing for a Message-ID already filed', () => {
    expect(decideInboundEmail(cmd(), state({ duplicate: true }))).to.deep.equal([]);
  });

  it('opens a conversation with the subject, or adds a part to the thread (reopening it)', () => {
    expect(decideInboundEmail(cmd(), state()).map((e) => e.type)).to.deep.equal([
      'contact.created',
      'conversation.created',
      'conversation_part.created',
      'email.received',
    ]);
    const threaded = decideInboundEmail(cmd(), state({ thread }));
    expect(threaded.map((e) => e.type)).to.deep.equal(['contact.created', 'conversation_part.created', 'email.received']);
    expect(threaded[1]!.payload).to.include({ conversation_id: thread.id, state: 'open' });
  });

  it('never threads a DMARC failure, and flags it', () => {
    const events = decideInboundEmail(cmd({ authentication: { spf: 'fail', dkim: 'none', dmarc: 'fail' } }), state({ thread }));
    expect(events.map((e) => e.type)).to.include('conversation.created');
    expect(events.find((e) => e.type === 'email.received')!.payload).to.include({ suspicious: true, threaded_by: 'new' });
  });

  it('does not reopen a closed conversation for an automated message', () => {
    const events = decideInboundEmail(cmd({ automated: true }), state({ thread }));
    expect(events.find((e) => e.type === 'conversation_part.created')!.payload).not.to.have.property('state');
  });

  it('separates quoted history from the new text', () => {
    expect(splitQuoted('New text\n\nOn Mon, 1 Jan 2026, A <a@x.example> wrote:\n> old\n> older\n')).to.deep.equal({
      text: 'New text',
      quoted: 'On Mon, 1 Jan 2026, A <a@x.example> wrote:\n> old\n> older',
    });
    expect(splitQuoted('Top\n-----Original Message-----\nFrom: x')).to.deep.equal({ text: 'Top', quoted: '-----Original Message-----\nFrom: x' });
    expect(splitQuoted('> only a quote')).to.deep.equal({ text: '> only a quote', quoted: null });
    expect(splitQuoted('a > b is fine\nno quote here')).to.deep.equal({ text: 'a > b is fine\nno quote here', quoted: null });
  });

  it('sanitises HTML and makes text storable', () => {
    expect(cleanHtml('<p onclick="x()">hi<script>bad()</script><a href="javascript:alert(1)">l</a></p>')).to.equal('<p>hi<a>l</a></p>');
    expect(storable('a\u0000b\ud800c')).to.equal('ab\ufffdc');
  });

  it('reads a bounce: the original Message-ID, the SMTP code and the diagnostic', async () => {
    const raw = [
      'From: MAILER-DAEMON@x.example',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      '',
      '--B',
      'Content-Type: message/delivery-status',
      '',
      'Final-Recipient: rfc822; a@x.example',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 unknown',
      '',
      '--B',
      'Content-Type: message/rfc822',
      '',
      'Message-ID: <p.1@acme.example>',
      'Subject: x',
      '',
      'body',
      '--B--',
    ].join('\r\n');
    const p = await parseEmail(Buffer.from(raw));
    expect(p.bounce).to.deep.equal({ originalMessageId: '<p.1@acme.example>', status: 550, diagnostic: '550 5.1.1 unknown' });
  });

  it('makes and reads reply addresses on the support mailbox', () => {
    const id = '3f1c0a52-1234-4abc-8def-0123456789ab';
    const a = replyAddress('support@acme.example', id);
    expect(a).to.equal('support+c.3f1c0a5212344abc8def0123456789ab@acme.example');
    expect(conversationOfReplyAddress(a)).to.equal(id);
    expect(baseAddress(a)).to.equal('support@acme.example');
    expect(conversationOfReplyAddress('support@acme.example')).to.equal(null);
  });
});
