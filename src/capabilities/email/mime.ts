// One e-mail, parsed (mailparser) into what the channel files: addresses, the
// threading headers, the new text apart from the quoted history, the HTML
// sanitised (sanitize-html, never stored raw), the attachments, and whether it
// is automated mail or a bounce. Every string is made storable (no NUL, no lone
// surrogate): mail is hostile input and Postgres refuses those. This runs in a
// worker thread (parse.worker.ts, mail-parser.ts), within a time and heap budget;
// its patterns are linear all the same (eslint's regexp rules hold them so), as
// a message that takes the whole budget is filed the slower way or refused.
import { createHash } from 'node:crypto';
import type { AddressObject, HeaderValue, ParsedMail, SimpleParserOptions } from 'mailparser';
import sanitizeHtml from 'sanitize-html';
import { storable, truncate } from '../../platform/text.js';

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

/** SHA-256 of a Message-ID, angle brackets and case aside: the key deduplication and threading look up. */
export const messageIdHash = (id: string): string => createHash('sha256').update(normalizeId(id)).digest('hex');
export const normalizeId = (id: string): string => id.trim().replace(/^<|>$/g, '').toLowerCase();

const MAX_TEXT = 65_535;
const MAX_HTML = 1_000_000;
const MAX_NAME = 255;
/** HTML beyond this many characters is not sanitised: only its text is kept (sanitising is the costly step). */
export const MAX_HTML_TO_SANITISE = 2_000_000;

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
        else if (a.address) out.push({ address: storable(a.address).toLowerCase(), name: a.name ? truncate(storable(a.name), MAX_NAME) : null });
      }
    };
    walk(group.value);
  }
  return out.slice(0, 100);
}

const headerText = (v: HeaderValue | undefined): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'value' in v && typeof v.value === 'string' ? v.value : '';

/** No attribution line is this long: longer lines are not looked at (cheap, whatever the patterns). */
const MAX_ATTRIBUTION = 1000;

/**
 * "On … wrote:", "Am … schrieb …:", "Le … a écrit :", "Name <a@b> wrote:". Each test is anchored or starts at a
 * delimiter no quantifier before it can also match, so the work is linear in the line's length (the one pattern
 * `.*<[^>]+@[^>]+>\s*wrote:` it replaces was cubic: a 5.7 KB line of `<@` stalled the process for 10 s).
 */
function isAttribution(line: string): boolean {
  if (line.length > MAX_ATTRIBUTION) return false;
  const l = line.toLowerCase();
  if (l.endsWith('wrote:')) return /^on\b/.test(l) ? /\bwrote:$/.test(l) : /<[^\s<>@]+@[^\s<>]+>\s*wrote:$/.test(l);
  if (/^am\b/.test(l)) return l.endsWith(':') && /\bschrieb/.test(l);
  return /^le\b/.test(l) && /\ba écrit ?:$/.test(l);
}

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
    if (j >= 0 && isAttribution(lines[j]!.trim())) cut = j;
    else if (j >= 1 && isAttribution(`${lines[j - 1]!.trim()} ${lines[j]!.trim()}`)) cut = j - 1;
  }
  const marker = lines.findIndex((l) => l.length <= MAX_ATTRIBUTION && /^-{2,}\s*original message\s*-{2,}$/i.test(l.trim()));
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

/** The lines of a delivery-status report that start with `field:` (case aside), with what follows the colon. */
function fieldValues(lines: string[], field: string): string[] {
  const prefix = `${field}:`;
  return lines.filter((l) => l.slice(0, prefix.length).toLowerCase() === prefix).map((l) => l.slice(prefix.length).trim());
}

/**
 * A delivery status notification (RFC 3464): what failed, and the message it was about. Read field by field, line
 * by line: the pattern `^diagnostic-code:\s*[^;\n]*;\s*(.+)$` it replaces was quadratic (a 110 KB report, 6 s).
 */
async function reportOf(m: ParsedMail): Promise<{ bounce: Bounce | null; report: boolean }> {
  if (!isDeliveryReport(m)) return { bounce: null, report: false };
  const lines = (m.text ?? '').split('\n');
  if (!fieldValues(lines, 'action').some((v) => v.toLowerCase().startsWith('failed'))) return { bounce: null, report: true };
  const status = fieldValues(lines, 'status')[0]?.split(/\s/, 1)[0] ?? null;
  const coded = fieldValues(lines, 'diagnostic-code').find((v) => v.includes(';'));
  const diagnostic = coded?.slice(coded.indexOf(';') + 1).trim() || status || 'delivery failed';
  const code = /^\d{3}\b/.exec(diagnostic)?.[0] ?? (status && /^\d\./.test(status) ? `${status[0]}00` : null);
  let originalMessageId: string | null = null;
  for (const a of m.attachments) {
    if (!/^(?:message\/rfc822|text\/rfc822-headers|message\/rfc822-headers)$/i.test(a.contentType)) continue;
    const original = await simpleParser(a.content, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true }).catch(() => null);
    if (original?.messageId) originalMessageId = storable(original.messageId);
    break;
  }
  return { bounce: { originalMessageId, status: code ? Number(code) : null, diagnostic: truncate(storable(diagnostic), 1000) }, report: true };
}

function isDeliveryReport(m: ParsedMail): boolean {
  const type = m.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return type?.value?.toLowerCase() === 'multipart/report' && type.params?.['report-type']?.toLowerCase() === 'delivery-status';
}

const TAG = /(\/?)(script|style|p|div|br|tr|li|h\d)\b/iy;

/**
 * The text of HTML, for HTML too large to sanitise (or to hand to mailparser's converter): tags dropped, the
 * contents of script and style dropped, block tags made line breaks, a few entities decoded, runs of blank space
 * folded. One pass that looks at each tag once (a sticky pattern at its `<`, no copy of it), and stops once it
 * has `max` characters: the part keeps no more than that anyway.
 */
export function htmlText(html: string, max = Infinity): string {
  const out: string[] = [];
  let length = 0;
  let skipping: string | null = null;
  for (let i = 0; i < html.length && length < max;) {
    const lt = html.indexOf('<', i);
    const end = lt < 0 ? html.length : lt;
    if (skipping === null && end > i) {
      out.push(html.slice(i, end));
      length += end - i;
    }
    if (lt < 0) break;
    const gt = html.indexOf('>', lt + 1);
    if (gt < 0) break;
    TAG.lastIndex = lt + 1;
    const tag = TAG.exec(html);
    const name = tag?.[2]?.toLowerCase() ?? null;
    if (skipping !== null) {
      if (tag?.[1] === '/' && name === skipping) skipping = null;
    } else if (name === 'script' || name === 'style') {
      if (tag![1] !== '/') skipping = name;
    } else if (name !== null) {
      out.push('\n');
      length++;
    }
    i = gt + 1;
  }
  return out
    .join('')
    .slice(0, max)
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
}

/**
 * `full`: everything above. `text`: the way a message that took the whole budget is filed: no HTML (its text
 * only), no quote split, no report parsing (a report is recognised, and not filed), mailparser's converters off.
 */
export type ParseMode = 'full' | 'text';

export interface ParseResult extends ParsedEmail {
  /** The Message-ID, or for a message without one its bytes' hash: the same message delivered twice is still one. */
  identity: string;
}

/** A Date header's date, unless unreadable or outside 1971 to 9999 (a forged or broken one). */
const plausibleDate = (d: Date | undefined): Date | null =>
  d && !Number.isNaN(d.getTime()) && d.getUTCFullYear() > 1970 && d.getUTCFullYear() < 10000 ? d : null;

/** The message's attachments, names and types cut to their columns; a bounce's copies of the message and its status left out. */
const attachmentsOf = (m: ParsedMail, bounce: boolean): ParsedAttachment[] =>
  m.attachments
    .filter((a) => !(bounce && /^(?:message\/rfc822|text\/rfc822-headers|message\/delivery-status)$/i.test(a.contentType)))
    .map((a) => ({
      name: a.filename ? truncate(storable(a.filename), 255) : null,
      content_type: truncate(storable(a.contentType), 255),
      content: a.content,
    }));

export async function parseEmail(raw: Buffer, mode: ParseMode = 'full'): Promise<ParseResult> {
  const full = mode === 'full';
  const m = await simpleParser(
    raw,
    full
      ? { skipImageLinks: true, skipTextLinks: true, maxHtmlLengthToParse: MAX_HTML_TO_SANITISE }
      : { skipImageLinks: true, skipTextLinks: true, skipHtmlToText: true, skipTextToHtml: true },
  );
  const rawHtml = typeof m.html === 'string' && m.html.trim() ? m.html : null;
  const sanitise = full && rawHtml !== null && rawHtml.length <= MAX_HTML_TO_SANITISE;
  const html = sanitise ? storable(cleanHtml(rawHtml)) : null;
  // HTML not converted (too large, or not at all in text mode) still gives the message its text.
  const plain = storable(m.text?.trim() ? m.text : rawHtml ? htmlText(rawHtml, 2 * MAX_TEXT) : '');
  const { text, quoted } = full ? splitQuoted(plain) : { text: plain.trim(), quoted: null };
  const { bounce, report } = full ? await reportOf(m) : { bounce: null, report: isDeliveryReport(m) };
  const from = addresses(m.from)[0] ?? null;
  const messageId = m.messageId ? storable(m.messageId) : null;
  return {
    messageId,
    identity: messageId ?? `<${messageIdHash(raw.toString('latin1'))}@missing-message-id>`,
    inReplyTo: ids(m.inReplyTo),
    references: ids(m.references),
    from,
    to: addresses(m.to),
    cc: addresses(m.cc),
    subject: m.subject ? truncate(storable(m.subject), 998) : null,
    date: plausibleDate(m.date),
    text: truncate(text, MAX_TEXT),
    quoted: quoted ? truncate(quoted, MAX_TEXT) : null,
    html: html ? truncate(html, MAX_HTML) : null,
    attachments: attachmentsOf(m, bounce !== null),
    automated: isAutomated(m),
    bounce,
    report,
  };
}
