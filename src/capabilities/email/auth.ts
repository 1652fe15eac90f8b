// Sender authentication: SPF, DKIM and DMARC with mailauth. The verdict is
// stored on the part; a DMARC failure marks the message suspicious, and a
// suspicious message is never threaded into an existing conversation.
import type { DNSResolver } from 'mailauth';

export type Verdict = 'pass' | 'fail' | 'neutral' | 'none' | 'softfail' | 'temperror' | 'permerror' | 'policy';
export interface Authentication {
  spf: Verdict;
  dkim: Verdict;
  dmarc: Verdict;
}

/**
 * The DNS mailauth asks (TXT records of SPF, DKIM keys, DMARC policies). Unset: the system resolver. Tests
 * set a resolver over a zone of their own, so no query leaves the machine.
 */
export const mailDns: { resolver?: DNSResolver } = {};

const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'neutral', 'none', 'softfail', 'temperror', 'permerror', 'policy'];
const verdict = (v: unknown): Verdict => (VERDICTS.includes(v as Verdict) ? (v as Verdict) : 'none');

/**
 * `ip`, `helo` and `sender` come from the SMTP session; for raw MIME posted over HTTP they are unknown and
 * are read from the message's own top Received header and Return-Path.
 */
export async function authenticateSender(
  raw: Buffer,
  session: { ip: string | null; helo: string | null; sender: string | null },
  mta: string,
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
      ...(mailDns.resolver ? { resolver: mailDns.resolver } : {}),
    });
    const dkim = res.dkim.results.map((r) => verdict((r as { status?: { result?: unknown } }).status?.result));
    return {
      spf: res.spf ? verdict(res.spf.status.result) : 'none',
      dkim: dkim.includes('pass') ? 'pass' : (dkim[0] ?? 'none'),
      dmarc: res.dmarc ? verdict(res.dmarc.status.result) : 'none',
    };
  } catch {
    // A message mailauth cannot evaluate is not authenticated; it is filed, unthreaded only if DMARC said fail.
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  }
}
