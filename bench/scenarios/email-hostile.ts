// email hostile (issue 43): how responsive the API stays while hostile mail
// arrives. A second service process on the same database receives, all at
// once, 20 mails with the review's attribution line (ten of 4,000 characters,
// the 5.7 KB message, and ten of 20,000) and three 20 MB text/html mails, over
// SMTP, one connection each, from a sender process of their own; meanwhile
// this process probes /healthz on a fixed schedule
// (each probe timed from when it was due, so a stall counts for every probe it
// delays). The figure is that p99 against the same probes' p99 with the
// process idle, in windows taking turns with the load's three rounds. Bounded:
// a fixed number of mails, rounds and probes, and a deadline after which
// whatever has not been answered is reported as such.
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { percentile, Prober } from '../../test/email/hostile-mail.js';
import { startDaemon } from '../lib/child.js';
import { row } from '../lib/report.js';
import type { HostileAnswer, HostileInput } from '../workers/hostile-sender.js';
import { auth, FULL, localResolver, type Scenario } from './shared.js';

const DEADLINE_MS = 180_000;
/**
 * The load is sent this many times (new messages each time), each round after a window of idle probes: one round
 * lasts about 2.5 s, 100 probes, whose p99 is the second worst of them; three give each figure about 300.
 */
const ROUNDS = 3;
/** The 5.7 KB mail and a 20 KB line, each alone: answered within this (issue 43). */
const ALONE_MS = 200;

export const emailHostile: Scenario = {
  name: 'email-hostile',
  aliases: ['hostile'],
  needsService: true,
  async run(ctx) {
    const quick = ctx.sizes.loadS < FULL.loadS;
    const port = await freePort();
    // The row measures hostile mail, not proving a domain: the bench's domain is nobody's to verify.
    // DNS from a resolver on this machine, as in production (and as the email inbound row).
    const resolver = await localResolver();
    const svc = await ctx.serviceWith('hostile', { SMTP_PORT: String(port), EMAIL_DOMAIN_VERIFICATION: 'off', ...resolver.env });
    const main = await ctx.tenant('main');
    const address = `hostile-${Date.now()}@bench.invalid`;
    const created = await fetch(`${svc.url}/api/channels`, {
      method: 'POST',
      headers: { ...auth(main), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'email', name: `Bench hostile ${address}`, address, default_team_id: null }),
    });
    if (created.status !== 201) throw new Error(`creating the e-mail channel: ${created.status} ${await created.text()}`);
    // The senders run in a process of their own (bench/workers/hostile-sender.ts): making and sending 60 MB of
    // mail here would delay the probes this process times.
    const sender = await startDaemon<{ mails: number }>(
      'hostile-sender.ts',
      {
        port,
        address,
        attribution: quick ? 4 : 20,
        html: quick ? 1 : 3,
        htmlBytes: (quick ? 5 : 20) * 1024 * 1024,
        rounds: ROUNDS,
        deadlineMs: DEADLINE_MS,
      } satisfies HostileInput,
      { timeoutMs: 120_000 },
    );
    let answers: HostileAnswer[];
    let aloneAll: HostileAnswer[];
    let seconds: number;
    // One probe every 25 ms: on a busy machine, a probe every 10 ms kept this process itself behind its schedule.
    const idle = new Prober(svc.url, { maxProbes: 20_000, gapMs: 25 });
    const hostile = new Prober(svc.url, { maxProbes: 20_000, gapMs: 25 });
    try {
      // One message first: the parser thread starts and loads its modules, which is not what is measured.
      await sender.call({ cmd: 'warm' });
      // The issue's other figure: each of the two answered within 200 ms when it arrives alone.
      aloneAll = await sender.call<HostileAnswer[]>({ cmd: 'alone' });
      // Exploring: with bench/tools/stall-watch.mjs preloaded into the service, SIGUSR2 marks the load's window
      // (from the first round's start to the last one's end, the idle windows between them included).
      const mark = () => void (process.env.STALL_WATCH_OUT && process.kill(svc.pid, 'SIGUSR2'));
      answers = [];
      let loadMs = 0;
      // Idle and loaded windows take turns, so that both figures see the same machine: its noise drifts over a
      // run (an idle p99 of 5.4 to 15.8 ms was seen for this constant handler), and a baseline taken once, before,
      // made the ratio a draw.
      for (let round = 0; round < ROUNDS; round++) {
        await idle.during(() => Promise.resolve(), quick ? 34 : 100);
        if (round === 0) mark();
        const started = performance.now();
        answers.push(...(await hostile.during(() => sender.call<HostileAnswer[]>({ cmd: 'send', round }), 34)));
        loadMs += performance.now() - started;
      }
      mark();
      seconds = loadMs / 1000;
    } finally {
      await sender.stop();
      await ctx.stopServiceWith('hostile');
      await resolver.stop();
    }
    const [plain, ...alone] = aloneAll;
    const slowAlone = alone.some((a) => a.code !== 250 || a.ms >= ALONE_MS);
    const attribution = answers.filter((a) => a.kind === 'attribution');
    const html = answers.filter((a) => a.kind === 'html');
    const codes = [...new Set(answers.map((a) => a.code ?? 'none'))].join(', ');
    const unanswered = answers.filter((a) => a.code === null).length;
    const ms = (xs: number[]) => ({ p50: percentile(xs, 50), max: Math.max(...xs) });
    const attributionMs = ms(attribution.map((a) => a.ms));
    const htmlMs = ms(html.map((a) => a.ms));
    return [
      row({
        scenario: 'email hostile',
        figure: `/healthz p99 while ${attribution.length / ROUNDS} attribution mails and ${html.length / ROUNDS} × ${quick ? 5 : 20} MB HTML mails arrive at once, ${ROUNDS} times`,
        unit: 'ms',
        ours: hostile.p99(),
        baselineLabel: '/healthz p99 idle, ms',
        baseline: idle.p99(),
        target: { kind: 'ratio<=', value: 3 },
        // Also failed: a mail unanswered, or either mail alone answered in 200 ms or more (or not with 250).
        ...(unanswered || slowAlone ? { status: 'fail' as const } : {}),
        note:
          `alone, the 5.7 KB mail answered ${alone[0]!.code} in ${alone[0]!.ms.toFixed(0)} ms and the 20 KB line ${alone[1]!.code} in ${alone[1]!.ms.toFixed(0)} ms (limit ${ALONE_MS}; a plain mail ${plain!.ms.toFixed(0)} ms); ` +
          `at once (${ROUNDS} rounds), ${answers.length} mails answered in ${seconds.toFixed(1)} s (codes ${codes}${unanswered ? `; ${unanswered} unanswered after ${DEADLINE_MS / 1000} s` : ''}); ` +
          `attribution mails answered in ${attributionMs.p50.toFixed(0)} ms (p50), ${attributionMs.max.toFixed(0)} ms (max); ` +
          `HTML mails ${htmlMs.p50.toFixed(0)} ms (p50), ${htmlMs.max.toFixed(0)} ms (max); ` +
          `${hostile.times.length} probes under load (${hostile.failures} failed), ${idle.times.length} idle`,
        details: {
          probes: { hostile: hostile.times.length, idle: idle.times.length },
          p50: { hostile: percentile(hostile.times, 50), idle: percentile(idle.times, 50) },
          max: { hostile: Math.max(...hostile.times), idle: Math.max(...idle.times) },
          aloneMs: { plain: plain!.ms, attribution: alone.map((a) => a.ms) },
          attributionMs,
          htmlMs,
          codes,
          unanswered,
        },
      }),
    ];
  },
};
