// Sender authentication: SPF, DKIM and DMARC with mailauth. The verdict is
// stored on the part. Only an aligned DMARC pass authenticates the From: any
// other verdict (fail, none, temperror, permerror, an evaluation that threw)
// marks the message suspicious, and a suspicious message is filed under an
// unverified contact of its own, never threaded into an existing conversation.
//
// RFC 7489 §6.6.1: DMARC needs one author domain. A message without exactly one
// From header holding exactly one address (two From headers, two addresses in
// one, group syntax, none) has none; mailauth returns no DMARC result for it,
// and it is recorded as `permerror` here: never authenticated.
//
// A `temperror` (the DNS did not answer) is filed flagged too, not refused with
// 451: the same rule over SMTP and the raw MIME route, and mail from a domain
// whose DNS stays down is never lost to a sender that gives up retrying. A
// teammate sees the flag; the sender's next message, once its DNS answers,
// authenticates again.
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { mailDns, type DnsResolve } from '../../platform/dns.js';

export type Verdict = 'pass' | 'fail' | 'neutral' | 'none' | 'softfail' | 'temperror' | 'permerror' | 'policy';
export interface Authentication {
  spf: Verdict;
  dkim: Verdict;
  dmarc: Verdict;
}

/** The DNS mailauth asks; tests set `mailDns.resolver` (src/platform/dns.ts) to answer from a zone of their own. */
export { mailDns };

const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'neutral', 'none', 'softfail', 'temperror', 'permerror', 'policy'];
const verdict = (v: unknown): Verdict => (VERDICTS.includes(v as Verdict) ? (v as Verdict) : 'none');

/** The header block of a message: what comes before its first empty line. */
function headerBlock(raw: Buffer): string {
  const head = raw.subarray(0, Math.min(raw.length, 256 * 1024)).toString('latin1');
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const end = [crlf, lf].filter((i) => i >= 0).reduce((a, b) => Math.min(a, b), head.length);
  return head.slice(0, end);
}

/**
 * Whether the message has exactly one From header holding exactly one address, not a group (RFC 7489 §6.6.1):
 * the one author domain DMARC can evaluate.
 */
export function singleAuthor(raw: Buffer): boolean {
  // Unfolded: a continuation line (starting with a space or a tab) belongs to the field before it.
  const fields = headerBlock(raw)
    .split(/\r?\n(?![ \t])/)
    .filter((f) => /^from[ \t]*:/i.test(f));
  if (fields.length !== 1) return false;
  const value = fields[0]!.slice(fields[0]!.indexOf(':') + 1).replace(/\r?\n/g, '');
  const parsed = addressparser(value);
  return parsed.length === 1 && !('group' in parsed[0]!) && !!parsed[0]!.address && parsed[0]!.address.includes('@');
}

/** Only an aligned DMARC pass authenticates the From; everything else is suspicious (see the top of this file). */
export const authenticated = (a: Authentication): boolean => a.dmarc === 'pass';

/**
 * `ip`, `helo` and `sender` come from the SMTP session; for raw MIME posted over HTTP they are unknown and
 * are read from the message's own top Received header and Return-Path.
 */
export async function authenticateSender(
  raw: Buffer,
  session: { ip: string | null; helo: string | null; sender: string | null },
  mta: string,
  resolver: DnsResolve,
): Promise<Authentication> {
  try {
    // Loaded with the first message (see mime.ts): most processes never authenticate a sender.
    const { authenticate } = await import('mailauth');
    const res = await authenticate(raw, {
      ...(session.ip ? { ip: session.ip } : { trustReceived: true }),
      ...(session.helo ? { helo: session.helo } : {}),
      ...(session.sender ? { sender: session.sender } : {}),
      mta,
      disableArc: true,
      disableBimi: true,
      resolver,
    });
    const dkim = res.dkim.results.map((r) => verdict((r as { status?: { result?: unknown } }).status?.result));
    return {
      spf: res.spf ? verdict(res.spf.status.result) : 'none',
      dkim: dkim.includes('pass') ? 'pass' : (dkim[0] ?? 'none'),
      // Without one author there is no DMARC evaluation to trust, whatever mailauth made of the first From.
      dmarc: !singleAuthor(raw) ? 'permerror' : res.dmarc ? verdict(res.dmarc.status.result) : 'none',
    };
  } catch {
    // A message mailauth cannot evaluate is not authenticated: filed flagged, threaded nowhere.
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  }
}
