// fast-check arbitraries of hostile MIME: what an attacker on the open internet
// can send the SMTP receiver without a credential. Nested multiparts (and one
// deep chain), every transfer encoding and some bogus ones, long lines, odd
// and repeated headers, encoded words in odd charsets, delivery reports,
// text cut next to surrogate pairs, NULs and lone surrogates, and now and then
// HTML over the sanitising cap. Messages are CRLF text, as SMTP carries it.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';

/** Pieces the parser's patterns and cut-offs care about, to be strung together. */
const pieces = fc.constantFrom(
  '<',
  '@',
  '>',
  ' ',
  '\t',
  'wrote:',
  'On ',
  'Am ',
  'schrieb',
  'Le ',
  ' a écrit :',
  '\n',
  '\n> ',
  ';',
  'a',
  'é',
  '😀',
  '\ud83d',
  '\ude00',
  '\u0000',
  '-',
  '-----Original Message-----',
  'Diagnostic-Code: smtp; ',
  'Action: failed\n',
  'Status: 5.1.1\n',
  '=?UTF-8?B?',
  '?=',
  '<p>',
  '</p>',
  '<script>',
  '<b',
  '&amp;',
);

/** Short hostile text, or one piece repeated into a long run (the shape that made the old patterns blow up). */
const hostileText = fc.oneof(
  { arbitrary: fc.string({ unit: pieces, maxLength: 60 }), weight: 3 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('<@', ' ', '<a@b> ', 'x;', '-', '😀', 'a', '\ud83d'),
        fc.integer({ min: 100, max: 12_000 }),
        fc.string({ unit: pieces, maxLength: 8 }),
      )
      .map(([s, k, tail]) => s.repeat(k) + tail),
    weight: 1,
  },
);

const base64Lines = (b: Buffer) => (b.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');

/** Quoted-printable, soft line breaks at 76 (no library: the test encodes what it means to send). */
function quotedPrintable(b: Buffer): string {
  let line = '';
  const out: string[] = [];
  for (const byte of b) {
    const c = byte >= 33 && byte <= 126 && byte !== 61 ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (line.length + c.length > 75) {
      out.push(`${line}=`);
      line = '';
    }
    line += c;
  }
  out.push(line);
  return out.join('\r\n');
}

type Encoding = '7bit' | '8bit' | 'base64' | 'quoted-printable' | 'x-bogus' | 'long-line';

const encode = (text: string, enc: Encoding): { header: string | null; body: string } => {
  const bytes = Buffer.from(text);
  switch (enc) {
    case 'base64':
      return { header: 'base64', body: base64Lines(bytes) };
    case 'quoted-printable':
      return { header: 'quoted-printable', body: quotedPrintable(bytes) };
    case 'x-bogus':
      return { header: 'x-bogus', body: base64Lines(bytes) };
    case 'long-line':
      // No encoding header at all, the text as one long line (line ends made CRLF; the client dot-stuffs).
      return { header: null, body: text.replace(/\r?\n|\r/g, '\r\n') };
    case '7bit':
    case '8bit':
      return { header: enc, body: text.replace(/\r?\n|\r/g, '\r\n') };
  }
};

const encoding = fc.constantFrom<Encoding>('7bit', '8bit', 'base64', 'quoted-printable', 'x-bogus', 'long-line');
const charset = fc.constantFrom('utf-8', 'iso-8859-1', 'x-unknown-charset', 'utf-16', 'us-ascii');

interface Leaf {
  kind: 'leaf';
  type: string;
  charset: string;
  encoding: Encoding;
  text: string;
  filename: string | null;
}
interface Multi {
  kind: 'multi';
  subtype: string;
  children: Part[];
  closed: boolean;
}
type Part = Leaf | Multi;

/** A delivery report's status fields, failed or not, with hostile diagnostic text. */
const deliveryStatus = fc
  .tuple(fc.constantFrom('failed', 'delayed', 'relayed', 'FAILED'), fc.constantFrom('5.1.1', '4.0.0', 'x', ''), hostileText)
  .map(
    ([action, status, diag]) =>
      `Reporting-MTA: dns; mx.example\n\nFinal-Recipient: rfc822; a@b\nAction: ${action}\nStatus: ${status}\nDiagnostic-Code: ${diag}\n`,
  );

/** HTML, now and then over the 2 MB sanitising cap. */
const html = fc.oneof(
  { arbitrary: hostileText.map((t) => `<html><body><p>${t}</p><script>alert(1)</script></body></html>`), weight: 6 },
  { arbitrary: fc.integer({ min: 2_100_000, max: 3_000_000 }).map((size) => `<div>${'<p>x <b>y</b></p>\n'.repeat(Math.ceil(size / 18))}</div>`), weight: 1 },
);

const leaf: fc.Arbitrary<Leaf> = fc.oneof(
  fc.record({ kind: fc.constant('leaf' as const), type: fc.constant('text/plain'), charset, encoding, text: hostileText, filename: fc.constant(null) }),
  fc.record({ kind: fc.constant('leaf' as const), type: fc.constant('text/html'), charset, encoding, text: html, filename: fc.constant(null) }),
  fc.record({
    kind: fc.constant('leaf' as const),
    type: fc.constant('message/delivery-status'),
    charset,
    encoding,
    text: deliveryStatus,
    filename: fc.constant(null),
  }),
  fc.record({
    kind: fc.constant('leaf' as const),
    type: fc.constantFrom('application/octet-stream', 'text/rfc822-headers', 'message/rfc822', 'image/png;;', '/'),
    charset,
    encoding,
    text: hostileText,
    filename: fc.option(
      hostileText.map((t) => t.slice(0, 400)),
      { nil: null },
    ),
  }),
);

const { part } = fc.letrec<{ part: Part; multi: Multi }>((tie) => ({
  part: fc.oneof({ maxDepth: 3, depthIdentifier: 'mime' }, leaf, tie('multi')),
  multi: fc.record({
    kind: fc.constant('multi' as const),
    subtype: fc.constantFrom('mixed', 'alternative', 'related', 'report; report-type=delivery-status', 'digest'),
    children: fc.array(tie('part'), { minLength: 0, maxLength: 4, depthIdentifier: 'mime' }),
    closed: fc.boolean(),
  }),
}));

/** A chain of multiparts `depth` deep around one text part (a parser that recurses per level). */
const deepChain = fc.integer({ min: 20, max: 400 }).map((depth): Part =>
  Array.from({ length: depth }).reduce<Part>((inner) => ({ kind: 'multi', subtype: 'mixed', children: [inner], closed: true }), {
    kind: 'leaf',
    type: 'text/plain',
    charset: 'utf-8',
    encoding: '7bit',
    text: 'deep',
    filename: null,
  }),
);

function render(p: Part): { headers: string[]; body: string } {
  if (p.kind === 'leaf') {
    const { header, body } = encode(p.text, p.encoding);
    const headers = [`Content-Type: ${p.type}; charset=${p.charset}`];
    if (header) headers.push(`Content-Transfer-Encoding: ${header}`);
    if (p.filename !== null) headers.push(`Content-Disposition: attachment; filename="${p.filename.replace(/[\r\n"]/g, '_')}"`);
    return { headers, body };
  }
  const boundary = `b${randomBytes(6).toString('hex')}`;
  const lines: string[] = ['preamble'];
  for (const c of p.children) {
    const r = render(c);
    lines.push(`--${boundary}`, ...r.headers, '', r.body);
  }
  if (p.closed) lines.push(`--${boundary}--`, 'epilogue');
  return { headers: [`Content-Type: multipart/${p.subtype}; boundary="${boundary}"`], body: lines.join('\r\n') };
}

/** `text` as encoded words of a charset, whatever it holds. */
const encodedWord = (text: string, cs: string) => `=?${cs}?B?${Buffer.from(text).toString('base64')}?=`;

const subject = fc.oneof(
  hostileText.map((t) => t.replace(/[\r\n]/g, ' ').slice(0, 2000)),
  fc.tuple(hostileText, charset).map(([t, cs]) => encodedWord(t.slice(0, 3000), cs)),
  // Cut next to a pair at the 998-unit cap, as encoded words split only between code points.
  fc.integer({ min: 990, max: 1000 }).map((k) => encodedWord(`${'b'.repeat(k)}😀😀`, 'UTF-8')),
  fc.constant('=?bogus?Q?=ZZ=?= ?= =?UTF-8?B?####?='),
);

const fromHeader = fc.oneof(
  fc.constant('Mallory <mallory@customer.example>'),
  fc.constant('grp: CEO <ceo@bank.example>, x <x@customer.example>;'),
  fc.constant('a@customer.example, b@customer.example'),
  fc.constant('<>'),
  fc.integer({ min: 250, max: 260 }).map((k) => `"${'n'.repeat(k)}😀" <mallory@customer.example>`),
  hostileText.map((t) => `"${t.replace(/[\r\n"\\]/g, ' ').slice(0, 500)}" <mallory@customer.example>`),
);

/** Headers beyond the usual: repeated, long, folded oddly, automated. */
const oddHeaders = fc.array(
  fc.oneof(
    fc.constant('From: Second <second@customer.example>'),
    fc.constant('Auto-Submitted: auto-replied'),
    fc.constant('Precedence: bulk'),
    fc.integer({ min: 1, max: 200 }).map((k) => `References: ${Array.from({ length: k }, (_, i) => `<r${i}@x>`).join(' ')}`),
    fc.integer({ min: 1000, max: 20_000 }).map((k) => `X-Long: ${'h'.repeat(k)}`),
    fc.integer({ min: 10, max: 300 }).map((k) => `X-Folded: a${'\r\n b'.repeat(k)}`),
    fc.constant('In-Reply-To: <<<<@>>>>'),
    fc.constant('Date: Mon, 99 Foo 99999 99:99:99 +9999'),
    hostileText.map((t) => `X-Hostile: ${t.replace(/[\r\n]/g, ' ').slice(0, 5000)}`),
  ),
  { maxLength: 4 },
);

/** One hostile message, To the channel's address. */
export function hostileMessage(e: { to: string; from: string }): fc.Arbitrary<Buffer> {
  return fc
    .record({
      body: fc.oneof({ arbitrary: part, weight: 8 }, { arbitrary: deepChain, weight: 1 }),
      subject,
      from: fromHeader,
      odd: oddHeaders,
      messageId: fc.boolean(),
    })
    .map(({ body, subject: s, from, odd, messageId }) => {
      const r = render(body);
      const headers = [
        `From: ${from}`,
        `To: ${e.to}`,
        `Subject: ${s}`,
        ...(messageId ? [`Message-ID: <g.${randomBytes(8).toString('hex')}@customer.example>`] : []),
        'MIME-Version: 1.0',
        ...odd,
        ...r.headers,
      ];
      return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${r.body}\r\n`);
    });
}
