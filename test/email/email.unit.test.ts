import { expect } from 'chai';
import { MAX_SUPPORT_LOCAL_PART } from '../../src/capabilities/channels/channels.decider.js';
import { baseAddress, bounceToken, conversationOfReplyAddress, partOfBounceAddress, replyAddress, replyToken } from '../../src/capabilities/email/addresses.js';
import {
  decideDeliveryFailed,
  decideInboundEmail,
  decideSent,
  senderIdentity,
  type InboundEmail,
  type InboundEmailState,
} from '../../src/capabilities/email/email.decider.js';
import { singleAuthor } from '../../src/capabilities/email/auth.js';
import { cleanHtml, htmlText, messageIdHash, parseEmail, splitQuoted } from '../../src/capabilities/email/mime.js';
import { encodeUriComponentCut, storable, truncate } from '../../src/platform/text.js';

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

  it('threads and files under the real contact only an aligned DMARC pass: none, temperror and permerror are suspicious', () => {
    for (const dmarc of ['none', 'temperror', 'permerror', 'neutral', 'policy'] as const) {
      const events = decideInboundEmail(cmd({ authentication: { spf: 'pass', dkim: 'pass', dmarc } }), state({ thread }));
      expect(
        events.map((e) => e.type),
        dmarc,
      ).to.include('conversation.created');
      expect(events.find((e) => e.type === 'email.received')!.payload, dmarc).to.include({ suspicious: true, threaded_by: 'new' });
      expect(senderIdentity(cmd({ authentication: { spf: 'pass', dkim: 'pass', dmarc } })), dmarc).to.deep.equal({
        external_id: 'unverified-email:grace@customer.example',
        name: 'Grace',
      });
    }
  });

  it('counts the From authors as RFC 7489 §6.6.1 does: one header, one address, no group', () => {
    const msg = (...from: string[]) => Buffer.from([...from, 'To: s@acme.example', 'Subject: x', '', 'From: body@evil.example', ''].join('\r\n'));
    expect(singleAuthor(msg('From: Grace <grace@customer.example>'))).to.equal(true);
    expect(singleAuthor(msg('From: "Hopper, Grace"', ' <grace@customer.example>'))).to.equal(true);
    expect(singleAuthor(msg('From: grp: Grace <grace@customer.example>;'))).to.equal(false);
    expect(singleAuthor(msg('From: a@customer.example, b@evil.example'))).to.equal(false);
    expect(singleAuthor(msg('From: a@customer.example', 'FROM: b@evil.example'))).to.equal(false);
    expect(singleAuthor(msg())).to.equal(false);
    expect(singleAuthor(msg('From: undisclosed'))).to.equal(false);
  });

  it('files a DMARC failure under an unverified contact of its own, never the contact holding the From address', () => {
    const spoofed = cmd({ from: { address: 'ceo@bank.example', name: 'CEO' }, authentication: { spf: 'fail', dkim: 'none', dmarc: 'fail' } });
    const events = decideInboundEmail(spoofed, state());
    const created = events.find((e) => e.type === 'contact.created')!;
    expect(created.payload).to.include({ contact_id: spoofed.contactId, external_id: 'unverified-email:ceo@bank.example', email: null, name: 'CEO' });
    expect(events.find((e) => e.type === 'conversation.created')!.payload).to.include({ contact_id: spoofed.contactId });
    // What the command looks the contact up by: the unverified identity, not the e-mail.
    expect(senderIdentity(spoofed)).to.deep.equal({ external_id: 'unverified-email:ceo@bank.example', name: 'CEO' });
    expect(senderIdentity(cmd())).to.deep.equal({ email: 'grace@customer.example', name: 'Grace' });
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

  it('recognises attributions in each form it knows, and no line longer than an attribution can be', () => {
    for (const line of ['Grace Hopper <grace@customer.example> wrote:', 'Am 1. Jan 2026 schrieb Grace <g@x.example>:', 'Le 1 janv. 2026, Grace a écrit :']) {
      expect(splitQuoted(`New\n\n${line}\n> old`), line).to.deep.equal({ text: 'New', quoted: `${line}\n> old` });
    }
    // Over two lines, as clients wrap it.
    expect(splitQuoted('New\nOn Mon, 1 Jan 2026 at 10:00, Grace Hopper\nwrote:\n> old').text).to.equal('New');
    const long = `On ${'x'.repeat(1000)} wrote:`;
    expect(splitQuoted(`New\n${long}\n> old`)).to.deep.equal({ text: `New\n${long}`, quoted: '> old' });
  });

  it('cuts text to a length on a code point boundary: never half a surrogate pair', () => {
    expect(truncate('ab😀', 3)).to.equal('ab');
    expect(truncate('ab😀', 4)).to.equal('ab😀');
    expect(truncate('abc', 2)).to.equal('ab');
    expect(truncate('😀😀', 3)).to.equal('😀');
  });

  it("records a relay's answer and a bounce's diagnostic cut between characters, with no NUL or lone surrogate (Postgres holds them)", () => {
    const ids = { conversationId: 'c', partId: 'p', channelId: 'ch' };
    const [sent] = decideSent(
      { ...ids, messageId: 'm', messageIdHash: 'h', to: [], subject: 's', relayResponse: `250 ${'x'.repeat(495)}😀 queued\u0000` },
      { recorded: false },
    );
    expect((sent!.payload as { relay_response: string }).relay_response).to.equal(`250 ${'x'.repeat(495)}`);
    const [failed] = decideDeliveryFailed({ ...ids, reason: 'bounced', status: 550, diagnostic: `\ud800${'y'.repeat(2000)}` }, { failed: false });
    const diagnostic = (failed!.payload as { diagnostic: string }).diagnostic;
    expect(diagnostic)
      .to.have.length(1000)
      .and.match(/^\ufffdy+$/);
  });

  it("cuts a file name's percent-encoding between characters, never inside one's escape, and survives a lone surrogate", () => {
    // é is %C3%A9 (6 characters): a cut at 8 keeps "a" and one é, not "a%C3%A9%C".
    expect(encodeUriComponentCut('aéé', 8)).to.equal('a%C3%A9');
    expect(decodeURIComponent(encodeUriComponentCut('😀'.repeat(200), 600))).to.equal('😀'.repeat(50));
    expect(encodeUriComponentCut('x\ud800y', 100)).to.equal('x%EF%BF%BDy');
  });

  it('takes the text of HTML in one pass: tags, script and style dropped, block tags as line breaks, stopping at a length', () => {
    expect(htmlText('<p>Hello <b>there</b> &amp; you</p><script>x<p>y</script><STYLE>p{}</STYLE><div>Next</div>')).to.equal('Hello there & you\nNext');
    expect(htmlText('<p>abc</p>'.repeat(10), 8)).to.equal('abc\nab');
    expect(htmlText('a <b c')).to.equal('a');
  });

  it('files a message that took the whole budget as its text only: no HTML, no quote split, a report recognised and not read', async () => {
    const html = 'From: g@x.example\r\nContent-Type: text/html\r\n\r\n<p>Hi</p><p>On Mon, A &lt;a@x.example&gt; wrote:</p><blockquote>&gt; old</blockquote>';
    const p = await parseEmail(Buffer.from(html), 'text');
    expect(p).to.include({ html: null, quoted: null });
    expect(p.text).to.equal('Hi\nOn Mon, A <a@x.example> wrote:\n> old');
    const report =
      'From: d@x.example\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="B"\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n';
    expect(await parseEmail(Buffer.from(report), 'text')).to.include({ report: true, bounce: null });
  });

  it('reads a report field by field: a Diagnostic-Code without a type, a long one, and none', async () => {
    const report = (diagnostic: string) =>
      Buffer.from(
        [
          'From: d@x.example',
          'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
          '',
          '--B',
          'Content-Type: message/delivery-status',
          '',
          'Action: failed',
          'Status: 5.2.2',
          diagnostic,
          '--B--',
          '',
        ].join('\r\n'),
      );
    expect((await parseEmail(report('Diagnostic-Code: smtp;552 mailbox full'))).bounce).to.include({ status: 552, diagnostic: '552 mailbox full' });
    expect((await parseEmail(report(`Diagnostic-Code: ${' '.repeat(80_000)}x`))).bounce).to.include({ status: 500, diagnostic: '5.2.2' });
    expect((await parseEmail(report('X-Other: 1'))).bounce).to.include({ status: 500, diagnostic: '5.2.2' });
  });

  describe('reply addresses: the support mailbox tagged with a MAC over the channel and the conversation', () => {
    const key = Buffer.alloc(32, 7);
    const tenant = '00000000-0000-4000-8000-0000000000e1';
    const channel = '00000000-0000-4000-8000-00000000000c';
    const id = '3f1c0a52-1234-4abc-8def-0123456789ab';
    const address = replyAddress('support@acme.example', replyToken(key, { tenantId: tenant, channelId: channel, conversationId: id }));
    const read = (recipient: string, over: { key?: Buffer; tenantId?: string; channelId?: string } = {}) =>
      conversationOfReplyAddress(over.key ?? key, { tenantId: over.tenantId ?? tenant, channelId: over.channelId ?? channel }, recipient);

    it('is the support mailbox with a lowercase base32 tag that fits a local part, and reads back', () => {
      expect(address).to.match(/^support\+[a-z2-7]{42}@acme\.example$/);
      expect(address.split('@')[0]!.length).to.be.at.most(64);
      expect(baseAddress(address)).to.equal('support@acme.example');
      expect(read(address)).to.equal(id);
      // An MTA that changes the case of the local part changes nothing.
      expect(read(address.toUpperCase())).to.equal(id);
      expect(read('support@acme.example')).to.equal(null);
    });

    it('stays within the 64 octets of RFC 5321 for the longest support local part a channel accepts', () => {
      const longest = `${'s'.repeat(MAX_SUPPORT_LOCAL_PART)}@acme.example`;
      const tagged = replyAddress(longest, replyToken(key, { tenantId: tenant, channelId: channel, conversationId: id }));
      expect(tagged.split('@')[0]!.length).to.equal(64);
      expect(read(tagged)).to.equal(id);
    });

    it('keeps bounce addresses and reply addresses apart: each reads back only as what it was made for', () => {
      const scope = { tenantId: tenant, channelId: channel };
      const partId = '00000000-0000-4000-8000-0000000000d1';
      const bounce = replyAddress('support@acme.example', bounceToken(key, { ...scope, partId }));
      expect(bounce.split('@')[0]!.length).to.be.at.most(64);
      expect(partOfBounceAddress(key, scope, bounce)).to.equal(partId);
      expect(partOfBounceAddress(key, scope, bounce.toUpperCase())).to.equal(partId);
      expect(conversationOfReplyAddress(key, scope, bounce)).to.equal(null);
      const replyTo = replyAddress('support@acme.example', replyToken(key, { ...scope, conversationId: partId }));
      expect(partOfBounceAddress(key, scope, replyTo)).to.equal(null);
      expect(partOfBounceAddress(key, { ...scope, channelId: '00000000-0000-4000-8000-00000000000d' }, bounce)).to.equal(null);
    });

    it('names no conversation when tampered with, made for another channel or key, or in the old unsigned form', () => {
      const tag = address.slice('support+'.length, address.indexOf('@'));
      for (let i = 0; i < tag.length; i += 5) {
        const flipped = tag.slice(0, i) + (tag[i] === 'a' ? 'b' : 'a') + tag.slice(i + 1);
        expect(read(`support+${flipped}@acme.example`), `char ${i}`).to.equal(null);
      }
      expect(read(address, { channelId: '00000000-0000-4000-8000-00000000000d' })).to.equal(null);
      expect(read(address, { tenantId: '00000000-0000-4000-8000-0000000000e2' })).to.equal(null);
      expect(read(address, { key: Buffer.alloc(32, 8) })).to.equal(null);
      expect(read('support+c.3f1c0a5212344abc8def0123456789ab@acme.example')).to.equal(null);
      expect(read(`support+${tag.slice(1)}@acme.example`)).to.equal(null);
      expect(read(`support+${tag}a@acme.example`)).to.equal(null);
    });
  });
});
