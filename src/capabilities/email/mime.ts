// One e-mail, parsed (mailparser) into what the channel files: addresses, the
// threading headers, the new text apart from the quoted history, the HTML
// sanitised (sanitize-html, never stored raw), the attachments, and whether it
// is automated mail or a bounce. Every string is made storable (no NUL, no lone
// surrogate): mail is hostile input and Postgres refuses those.
import { createHash } from 'node:crypto';
import type { AddressObject, HeaderValue, ParsedMail, SimpleParserOptions } from 'mailparser';
import sanitizeHtml from 'sanitize-html';

// mailparser (and mailauth, auth.ts) load when the first message is parsed, not with the service: every process
// starts the service's modules (API processes, workers, each CLI command), and most never see an e-mail.
let parser: Promise<typeof import('mailparser')> | null = null;
async function simpleParser(input: Buffer, options: SimpleParserOptions): Promise<ParsedMail> {
  return (await (parser ??= import('mailparser'))).simpleParser(input, options);
}

export interface Address {
  address: string;
  name: string | null;
}

export interface ParsedAttachment {
  name: string | null;
  content_type: string;
  content: Buffer;
}

export interface Bounce {
  /** the Message-ID of the message that bounced, from the report's returned message or headers */
  originalMessageId: string | null;
  /** the SMTP code in the report's Diagnostic-Code (else the class of its Status) */
  status: number | null;
  diagnostic: string;
}

export interface ParsedEmail {
  messageId: string | null;
  inReplyTo: string[];
  references: string[];
  from: Address | null;
  to: Address[];
  cc: Address[];
  subject: string | null;
  /** the Date header, when it parses */
  date: Date | null;
  /** the new text (plain text preferred; derived from the HTML for an HTML-only message) */
  text: string;
  quoted: string | null;
  html: string | null;
  attachments: ParsedAttachment[];
  /** Auto-Submitted other than `no`, Precedence bulk/list/junk: never answered automatically */
  automated: boolean;
  /** a delivery status notification saying a message failed; null for every other message */
  bounce: Bounce | null;
  /** a delivery status notification that is not a failure (delayed, relayed): nothing to file */
  report: boolean;
}

/** Text Postgres can store: NUL removed, lone surrogates replaced. */
export const storable = (s: string): string =>
  s.replace(/\u0000/g, '').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** SHA-256 of a Message-ID, angle brackets and case aside: the key deduplication and threading look up. */
export const messageIdHash = (id: string): string => createHash('sha256').update(normalizeId(id)).digest('hex');
export const normalizeId = (id: string): string => id.trim().replace(/^<|>$/g, '').toLowerCase();

const MAX_TEXT = 65_535;

const ids = (v: string | string[] | undefined): string[] =>
  [v ?? []]
    .flat()
    .flatMap((s) => s.match(/<[^<>\s]+>/g) ?? (s.trim() ? [s.trim()] : []))
    .map(storable)
    .slice(0, 100);

function addresses(v: AddressObject | AddressObject[] | undefined): Address[] {
  const out: Address[] = [];
  for (const group of [v ?? []].flat()) {
    const walk = (list: AddressObject['value']) => {
      for (const a of list) {
        if (a.group) walk(a.group);
        else if (a.address) out.push({ address: storable(a.address).toLowerCase(), name: a.name ? storable(a.name) : null });
      }
    };
    walk(group.value);
  }
  return out.slice(0, 100);
}

const headerText = (v: HeaderValue | undefined): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'value' in v && typeof v.value === 'string' ? v.value : '';

/** Splits a reply's new text from the history it quotes ("On … wrote:" and the `>` lines after it, or an Outlook marker). */
export function splitQuoted(text: string): { text: string; quoted: string | null } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let cut = lines.length;
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!.trim();
    if (l === '' || l.startsWith('>')) cut = i;
    else break;
  }
  if (!lines.slice(cut).some((l) => l.trim().startsWith('>'))) cut = lines.length;
  if (cut < lines.length) {
    let j = cut - 1;
    while (j >= 0 && lines[j]!.trim() === '') j--;
    const attribution = /^(on\b.*\bwrote:|am\b.*\bschrieb.*:|le\b.*\ba écrit ?:|.*<[^>]+@[^>]+>\s*wrote:)$/i;
    if (j >= 0 && attribution.test(lines[j]!.trim())) cut = j;
    else if (j >= 1 && attribution.test(`${lines[j - 1]!.trim()} ${lines[j]!.trim()}`)) cut = j - 1;
  }
  const marker = lines.findIndex((l) => /^-{2,}\s*original message\s*-{2,}$/i.test(l.trim()));
  if (marker >= 0 && marker < cut) cut = marker;
  const fresh = lines.slice(0, cut).join('\n').trim();
  const quoted = lines.slice(cut).join('\n').trim();
  // A message that is nothing but a quote keeps its text.
  if (!quoted || !fresh) return { text: text.trim(), quoted: null };
  return { text: fresh, quoted };
}

/** The sanitised HTML: sanitize-html's defaults (no script, style, event handlers or javascript: URLs), no images from elsewhere. */
export const cleanHtml = (html: string): string =>
  sanitizeHtml(html, { allowedSchemes: ['http', 'https', 'mailto'], allowedSchemesByTag: {}, allowProtocolRelative: false });

function isAutomated(m: ParsedMail): boolean {
  const auto = headerText(m.headers.get('auto-submitted')).trim().toLowerCase();
  if (auto && auto !== 'no') return true;
  const precedence = headerText(m.headers.get('precedence')).trim().toLowerCase();
  if (['bulk', 'list', 'junk'].includes(precedence)) return true;
  return m.headers.has('x-autoreply') || m.headers.has('x-autorespond');
}

/** A delivery status notification (RFC 3464): what failed, and the message it was about. */
async function reportOf(m: ParsedMail): Promise<{ bounce: Bounce | null; report: boolean }> {
  const type = m.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  if (type?.value?.toLowerCase() !== 'multipart/report' || type.params?.['report-type']?.toLowerCase() !== 'delivery-status')
    return { bounce: null, report: false };
  const text = m.text ?? '';
  if (!/^action:\s*failed/im.test(text)) return { bounce: null, report: true };
  const diagnostic = /^diagnostic-code:\s*[^;\n]*;\s*(.+)$/im.exec(text)?.[1]?.trim() ?? /^status:\s*(\S+)/im.exec(text)?.[1] ?? 'delivery failed';
  const code = /^(\d{3})\b/.exec(diagnostic)?.[1] ?? (/^status:\s*(\d)\./im.exec(text)?.[1] ? `${/^status:\s*(\d)\./im.exec(text)![1]}00` : null);
  let originalMessageId: string | null = null;
  for (const a of m.attachments) {
    if (!/^(message\/rfc822|text\/rfc822-headers|message\/rfc822-headers)$/i.test(a.contentType)) continue;
    const original = await simpleParser(a.content, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true }).catch(() => null);
    if (original?.messageId) originalMessageId = storable(original.messageId);
    break;
  }
  return { bounce: { originalMessageId, status: code ? Number(code) : null, diagnostic: storable(diagnostic).slice(0, 1000) }, report: true };
}

export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
  const m = await simpleParser(raw, { skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: 2_000_000 });
  const html = typeof m.html === 'string' && m.html.trim() ? storable(cleanHtml(m.html)) : null;
  const plain = storable(m.text ?? '');
  const { text, quoted } = splitQuoted(plain);
  const { bounce, report } = await reportOf(m);
  const from = addresses(m.from)[0] ?? null;
  return {
    messageId: m.messageId ? storable(m.messageId) : null,
    inReplyTo: ids(m.inReplyTo),
    references: ids(m.references),
    from,
    to: addresses(m.to),
    cc: addresses(m.cc),
    subject: m.subject ? storable(m.subject).slice(0, 998) : null,
    date: m.date && !Number.isNaN(m.date.getTime()) && m.date.getUTCFullYear() > 1970 && m.date.getUTCFullYear() < 10000 ? m.date : null,
    text: text.slice(0, MAX_TEXT),
    quoted: quoted ? quoted.slice(0, MAX_TEXT) : null,
    html: html ? html.slice(0, 1_000_000) : null,
    attachments: m.attachments
      .filter((a) => !(bounce && /^(message\/rfc822|text\/rfc822-headers|message\/delivery-status)$/i.test(a.contentType)))
      .map((a) => ({ name: a.filename ? storable(a.filename).slice(0, 255) : null, content_type: storable(a.contentType).slice(0, 255), content: a.content })),
    automated: isAutomated(m),
    bounce,
    report,
  };
}
