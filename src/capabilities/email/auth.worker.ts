// What an authentication thread runs (src/platform/offload.ts, auth.ts): mailauth
// over one message's bytes. DKIM's body hashing and canonicalisation cost time
// in proportion to the message (hundreds of ms for 20 MB), and that is what must
// not run on the event loop. The DNS is not answered here: the resolver the
// service was configured with (and the zone a test put in its place) lives on
// the event loop's thread and cannot be sent to another, so each question goes
// back over the task's port and waits for the answer there.
import type { MessagePort } from 'node:worker_threads';
import { offloadTask } from '../../platform/offload.worker.js';

/** A question from this thread; the answer names the same id. */
export interface DnsQuestion {
  id: number;
  name: string;
  rrtype: string;
}

/** The records, or the error with its `code` (mailauth tells ENOTFOUND/ENODATA, "none", from anything else, "temperror", by it). */
export type DnsAnswer = { id: number; records: unknown } | { id: number; error: { message: string; code?: string } };

export interface AuthInput {
  /** the message, in shared memory: a structured clone of 20 MB would hold the event loop that sends it */
  raw: Uint8Array;
  options: { ip?: string; trustReceived?: boolean; helo?: string; sender?: string; mta: string };
  /** the DNS: questions out, answers in (closed here when the task ends) */
  port: MessagePort;
}

/** What auth.ts makes a verdict of, each still mailauth's word: not its whole result, which carries the headers. */
export interface AuthOutcome {
  spf: unknown;
  dkim: unknown[];
  /** null: mailauth made no DMARC evaluation (no From it could read) */
  dmarc: unknown;
}

/** How a question the deadline cut short fails: mailauth takes ETIMEOUT as a temporary DNS error. */
const timedOut = () => Object.assign(new Error('no DNS answer within the budget'), { code: 'ETIMEOUT' });

export const authenticate = offloadTask(async (input: AuthInput, deadline: AbortSignal): Promise<AuthOutcome> => {
  const { port } = input;
  const waiting = new Map<number, { resolve: (records: unknown) => void; reject: (e: Error) => void }>();
  let next = 0;
  // The task has already failed (offloadTask); what mailauth still waits for fails too, so it ends and frees its place.
  deadline.addEventListener(
    'abort',
    () => {
      for (const w of waiting.values()) w.reject(timedOut());
      waiting.clear();
    },
    { once: true },
  );
  port.on('message', (a: DnsAnswer) => {
    const w = waiting.get(a.id);
    waiting.delete(a.id);
    if (!w) return;
    if ('error' in a) w.reject(Object.assign(new Error(a.error.message), a.error.code ? { code: a.error.code } : {}));
    else w.resolve(a.records);
  });
  const resolver = (name: string, rrtype: string) =>
    new Promise<never>((resolve, reject) => {
      if (deadline.aborted) return reject(timedOut());
      const id = next++;
      waiting.set(id, { resolve: resolve as (records: unknown) => void, reject });
      port.postMessage({ id, name, rrtype } satisfies DnsQuestion);
    });
  try {
    // Loaded with this thread's first message: a thread that only parses never loads it.
    const { authenticate: mailauth } = await import('mailauth');
    const res = await mailauth(Buffer.from(input.raw.buffer, input.raw.byteOffset, input.raw.byteLength), {
      ...input.options,
      disableArc: true,
      disableBimi: true,
      resolver,
    });
    return {
      spf: res.spf ? res.spf.status.result : null,
      dkim: res.dkim.results.map((r) => (r as { status?: { result?: unknown } }).status?.result),
      dmarc: res.dmarc ? res.dmarc.status.result : null,
    };
  } finally {
    // An open port keeps this thread's event loop referenced, and the event loop's side listening.
    port.close();
  }
});
