// Hostile mail: the security review's reproductions (2026-11-28, findings 1, 5
// and 8) as message builders, and a /healthz probe loop that measures how
// responsive the service stays while they are received. Used by the hostile
// mail tests and by the bench's `email hostile` row.
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';

export interface Envelope {
  to: string;
  from: string;
  /** the Message-Id header's value, angle brackets included (default: a random one) */
  messageId?: string;
}

const base64Lines = (b: Buffer | string) =>
  (
    Buffer.from(b)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');
const id = (e: Envelope) => e.messageId ?? `<${randomBytes(8).toString('hex')}@customer.example>`;

/** The message text with CRLF line ends, headers first. */
function message(e: Envelope, headers: string[], body: string): Buffer {
  return Buffer.from(
    [
      `From: Mallory <${e.from}>`,
      `To: ${e.to}`,
      `Message-ID: ${id(e)}`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      ...headers,
      '',
      body,
      '',
    ].join('\r\n'),
  );
}

/**
 * Finding 1: one logical line of `<@` above a quote block, base64 so that SMTP's lines stay short. 2,000 pairs is
 * the review's 5,715-byte message (10.6 s to answer before the fix); 10,000 pairs, a 20 KB line (about 10 minutes).
 */
export function attributionMail(e: Envelope, pairs = 2000): Buffer {
  const text = `Hi,\n${'<@'.repeat(pairs)}\n> quoted\n`;
  return message(e, ['Subject: x', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64'], base64Lines(text));
}

/** Finding 1: a delivery report whose Diagnostic-Code is 80,000 spaces and an `x` (110 KB; 6.2 s before the fix). */
export function longDiagnosticReport(e: Envelope, spaces = 80_000): Buffer {
  const boundary = `report-${randomBytes(6).toString('hex')}`;
  const status = [
    'Reporting-MTA: dns; mx.customer.example',
    '',
    `Final-Recipient: rfc822; ${e.to}`,
    'Action: failed',
    'Status: 5.1.1',
    `Diagnostic-Code: ${' '.repeat(spaces)}x`,
    '',
  ].join('\r\n');
  return message(
    { ...e, from: e.from },
    ['Subject: Undelivered Mail Returned to Sender', `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`],
    [
      `--${boundary}`,
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'Your message could not be delivered.',
      `--${boundary}`,
      'Content-Type: message/delivery-status',
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(status),
      `--${boundary}`,
      'Content-Type: text/rfc822-headers',
      '',
      `Message-ID: <p.${randomBytes(8).toString('hex')}@acme.example>`,
      'Subject: a reply',
      `--${boundary}--`,
    ].join('\r\n'),
  );
}

/** Finding 5: a `text/html` message of about `bytes` bytes (20 MB: a 4.3 s stall of the whole process before the fix). */
export function bigHtmlMail(e: Envelope, bytes = 20 * 1024 * 1024): Buffer {
  const line = '<p>Hello <b>there</b> &amp; welcome to <a href="https://customer.example/">our shop</a></p>\r\n';
  const body = `<html><body>\r\n${line.repeat(Math.ceil(bytes / line.length))}</body></html>`;
  return message(e, ['Subject: big html', 'Content-Type: text/html; charset=utf-8'], body);
}

/** `text` as encoded words, one per line, cut only between code points (so each word is valid UTF-8). */
function encodedWords(text: string): string {
  const chunks = [...text].reduce<string[]>((acc, ch) => {
    if (!acc.length || acc[acc.length - 1]!.length >= 40) acc.push('');
    acc[acc.length - 1] += ch;
    return acc;
  }, []);
  return chunks.map((c) => `=?UTF-8?B?${Buffer.from(c).toString('base64')}?=`).join('\r\n ');
}

/** Finding 8: a subject of 997 `b` and an emoji: cut at 998 UTF-16 units, it split the emoji (451 for ever before the fix). */
export const SURROGATE_SUBJECT = `${'b'.repeat(997)}😀`;
/** Finding 8: an attachment name cut at 255 units. */
export const SURROGATE_FILENAME = `${'a'.repeat(254)}😀`;
/** Finding 8: a body cut at 65,535 units. */
export const SURROGATE_BODY = `${'c'.repeat(65_534)}😀`;

export function surrogateSubjectMail(e: Envelope): Buffer {
  return message(e, [`Subject: ${encodedWords(SURROGATE_SUBJECT)}`, 'Content-Type: text/plain; charset=utf-8'], 'Subject cut in a pair.');
}

export function surrogateBodyMail(e: Envelope): Buffer {
  return message(e, ['Subject: body cut', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64'], base64Lines(SURROGATE_BODY));
}

export function surrogateAttachmentMail(e: Envelope): Buffer {
  const boundary = `mixed-${randomBytes(6).toString('hex')}`;
  const name = `utf-8''${encodeURIComponent(SURROGATE_FILENAME)}`;
  return message(
    e,
    ['Subject: attachment name cut', `Content-Type: multipart/mixed; boundary="${boundary}"`],
    [
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'See the file.',
      `--${boundary}`,
      `Content-Type: application/octet-stream`,
      `Content-Disposition: attachment; filename*=${name}`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines('file contents'),
      `--${boundary}--`,
    ].join('\r\n'),
  );
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};

/**
 * Probes of `${base}/healthz` on a fixed schedule, one every `gapMs`, taken only while some work is under way
 * (`during`): what is measured is the service's answer while mail arrives, not the gaps in which a test makes its
 * next message (in this same process). Each probe's time counts from when it was due, not from when it was sent:
 * an event loop stalled for 10 s delays every probe due meanwhile, so the stall weighs in the p99 as it does for
 * every client, instead of as one slow probe among hundreds. Bounded: at most `maxProbes` probes in all.
 */
export class Prober {
  readonly times: number[] = [];
  /** probes that got no answer (each also in `times`, as long as it took to fail) */
  failures = 0;
  private readonly inflight = new Set<Promise<void>>();
  private active = 0;
  private timer: NodeJS.Timeout | null = null;
  private next = 0;
  private sent = 0;

  constructor(
    private readonly base: string,
    private readonly opts: { maxProbes?: number; gapMs?: number } = {},
  ) {}

  private tick(): void {
    const { maxProbes = 5000, gapMs = 10 } = this.opts;
    this.timer = null;
    if (this.active === 0) return;
    const now = performance.now();
    for (; this.next <= now && this.sent < maxProbes; this.next += gapMs) {
      const due = this.next;
      this.sent++;
      // A probe that fails (refused, timed out) counts as answered when it failed: no better than a slow one.
      const probe = fetch(`${this.base}/healthz`)
        .then((r) => r.arrayBuffer())
        .catch(() => void this.failures++)
        .then(() => void this.times.push(performance.now() - due))
        .finally(() => this.inflight.delete(probe));
      this.inflight.add(probe);
    }
    if (this.sent < maxProbes) this.timer = setTimeout(() => this.tick(), Math.max(0, this.next - performance.now()));
  }

  /** Runs `work` with probes going; at least `minProbes` of them are answered before it returns. */
  async during<T>(work: () => Promise<T>, minProbes = 0): Promise<T> {
    const target = this.times.length + minProbes;
    if (this.active++ === 0) {
      this.next = performance.now();
      this.tick();
    }
    try {
      const result = await work();
      while (this.times.length < target && this.sent < (this.opts.maxProbes ?? 5000)) await new Promise((resolve) => setTimeout(resolve, 5));
      return result;
    } finally {
      if (--this.active === 0 && this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      await Promise.all(this.inflight);
    }
  }

  p99(): number {
    return percentile(this.times, 99);
  }
}
