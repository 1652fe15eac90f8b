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
//
// mailauth runs in a parser thread (auth.worker.ts), within MAIL_AUTH_TIMEOUT_MS:
// DKIM hashes and canonicalises the whole body, which on the event loop held the
// API for hundreds of ms on a 20 MB message. The DNS is still asked here, on the
// event loop, where the configured resolver (or a test's zone) is: the thread
// sends each question over a MessagePort and waits for the answer. The budget
// counts those waits too (wall-clock time less the thread's waits for a core), so a sender whose DNS hangs holds a thread no longer
// than it. An authentication over the budget (its thread ended, the port closed,
// answers still on their way dropped) is a `temperror`, like DNS that does not
// answer: filed flagged, for the same reasons as above, never refused.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { mailDns, type DnsResolve } from '../../platform/dns.js';
import { inSharedMemory, type Offload } from '../../platform/offload.js';
import type { AuthInput, AuthOutcome, DnsAnswer, DnsQuestion } from './auth.worker.js';

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

// The worker module beside this one, with this one's extension (see mail-parser.ts).
const here = fileURLToPath(import.meta.url);
const WORKER = pathToFileURL(path.join(path.dirname(here), `auth.worker${path.extname(here)}`));

/** Answers a thread's DNS questions from `resolver` until closed. */
function answering(resolver: DnsResolve): MessageChannel {
  const channel = new MessageChannel();
  channel.port1.on('message', (q: DnsQuestion) => {
    const reply = (a: DnsAnswer) => channel.port1.postMessage(a);
    // An error crosses as its message and code: mailauth reads `code` to tell a name without records from a DNS that failed.
    Promise.resolve()
      .then(() => resolver(q.name, q.rrtype))
      .then(
        (records) => reply({ id: q.id, records }),
        (e: unknown) => {
          const code = (e as { code?: unknown }).code;
          reply({ id: q.id, error: { message: e instanceof Error ? e.message : String(e), ...(typeof code === 'string' ? { code } : {}) } });
        },
      );
  });
  return channel;
}

/**
 * `ip`, `helo` and `sender` come from the SMTP session; for raw MIME posted over HTTP they are unknown and
 * are read from the message's own top Received header and Return-Path.
 */
export async function authenticateSender(
  offload: Offload,
  raw: Buffer,
  session: { ip: string | null; helo: string | null; sender: string | null },
  mta: string,
  resolver: DnsResolve,
  budget: { timeoutMs: number },
): Promise<Authentication> {
  const dns = answering(resolver);
  try {
    const input: AuthInput = {
      raw: inSharedMemory(raw),
      options: {
        ...(session.ip ? { ip: session.ip } : { trustReceived: true }),
        ...(session.helo ? { helo: session.helo } : {}),
        ...(session.sender ? { sender: session.sender } : {}),
        mta,
      },
      port: dns.port2,
    };
    const res = await offload.run<AuthOutcome>(WORKER, 'authenticate', input, { ...budget, clock: 'wall' }, [dns.port2]);
    const dkim = res.dkim.map(verdict);
    return {
      spf: res.spf === null ? 'none' : verdict(res.spf),
      dkim: dkim.includes('pass') ? 'pass' : (dkim[0] ?? 'none'),
      // Without one author there is no DMARC evaluation to trust, whatever mailauth made of the first From.
      dmarc: !singleAuthor(raw) ? 'permerror' : res.dmarc !== null ? verdict(res.dmarc) : 'none',
    };
  } catch {
    // A message mailauth cannot evaluate, or not within the budget, is not authenticated: filed flagged, threaded nowhere.
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror' };
  } finally {
    dns.port1.close();
  }
}
