// The sending MTAs of the `email hostile` row, in a process of their own so
// that building and sending 60 MB of mail does not delay the /healthz probes
// the runner times. Started with the receiver's port and address, it makes the
// mails (ready once they are made), sends them all at once when called, one
// SMTP connection each, and answers how each was answered and when.
import { setPriority } from 'node:os';
import { daemon } from '../lib/child.js';
import { attributionMail, bigHtmlMail } from '../../test/email/hostile-mail.js';
import { sendMail } from '../../test/email/mail-rig.js';

export interface HostileInput {
  port: number;
  address: string;
  attribution: number;
  html: number;
  htmlBytes: number;
  /** how many times the whole load is sent ('send' names the round), each time as new messages */
  rounds: number;
  /** a mail not answered by then counts as unanswered */
  deadlineMs: number;
}

export interface HostileAnswer {
  kind: 'attribution' | 'html';
  ms: number;
  code: number | null;
}

daemon<HostileInput, { mails: number }>(async (input) => {
  // The senders stand for other machines' MTAs: their CPU (dot-stuffing 60 MB, the sockets) is not the service's
  // in production, so on the bench's one box they run behind it, as the service's own parser threads do
  // (niceIncrement 10, src/platform/offload.ts). Otherwise the row measures two processes sharing two cores.
  setPriority(10);
  const envelope = (i: number) => ({ to: input.address, from: `m${i}@customer.invalid`, messageId: `<hostile.${Date.now()}.${i}@customer.invalid>` });
  // Ten of the review's 5.7 KB message (a 4,000-character line), ten 20 KB lines.
  const mailsOf = (round: number) => [
    ...Array.from({ length: input.attribution }, (_, i) => ({
      kind: 'attribution' as const,
      data: attributionMail(envelope(round * 1000 + i), i % 2 ? 10_000 : 2_000),
    })),
    ...Array.from({ length: input.html }, (_, i) => ({ kind: 'html' as const, data: bigHtmlMail(envelope(round * 1000 + 100 + i), input.htmlBytes) })),
  ];
  // Made before any is sent: making 60 MB of mail would otherwise run beside the sending.
  const rounds = Array.from({ length: input.rounds }, (_, r) => mailsOf(r));
  const timed = async (kind: HostileAnswer['kind'], data: Buffer | string): Promise<HostileAnswer> => {
    const started = performance.now();
    const r = await Promise.race([
      sendMail(input.port, { to: input.address, from: 'm@customer.invalid', data }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), input.deadlineMs).unref()),
    ]);
    return { kind, ms: performance.now() - started, code: r === null ? null : r.code };
  };
  return {
    ready: { mails: rounds.flat().length },
    async handle(msg: { cmd: 'warm' } | { cmd: 'alone' } | { cmd: 'send'; round: number }): Promise<HostileAnswer[]> {
      if (msg.cmd === 'warm') {
        const r = await sendMail(input.port, { to: input.address, from: 'warm@customer.invalid', data: attributionMail(envelope(999), 10) });
        return [{ kind: 'attribution', ms: 0, code: r.code }];
      }
      // The review's 5.7 KB message and a 20 KB line, one after the other, nothing else arriving, and before them a
      // mail like the warm-up's (a 10-pair line), for what any mail costs.
      if (msg.cmd === 'alone') {
        const answers: HostileAnswer[] = [];
        for (const [i, pairs] of [10, 2_000, 10_000].entries()) answers.push(await timed('attribution', attributionMail(envelope(900 + i), pairs)));
        return answers;
      }
      return Promise.all(rounds[msg.round]!.map((m) => timed(m.kind, m.data)));
    },
    async stop() {
      return null;
    },
  };
});
