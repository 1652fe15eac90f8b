// email hostile (issue 43): how responsive the API stays while hostile mail
// arrives. A second service process on the same database receives, all at
// once, 20 mails with the review's attribution line (ten of 4,000 characters,
// the 5.7 KB message, and ten of 20,000) and three 20 MB text/html mails, over
// SMTP, one connection each; meanwhile /healthz is probed on a fixed schedule
// (each probe timed from when it was due, so a stall counts for every probe it
// delays). The figure is that p99 against the same probes' p99 with the
// process idle, just before. Bounded: a fixed number of mails and probes, and
// a deadline after which whatever has not been answered is reported as such.
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { attributionMail, bigHtmlMail, percentile, Prober } from '../../test/email/hostile-mail.js';
import { sendMail, type SendResult } from '../../test/email/mail-rig.js';
import { row } from '../lib/report.js';
import { auth, FULL, type Scenario } from './shared.js';

const DEADLINE_MS = 180_000;

export const emailHostile: Scenario = {
  name: 'email-hostile',
  aliases: ['hostile'],
  needsService: true,
  async run(ctx) {
    const quick = ctx.sizes.loadS < FULL.loadS;
    const port = await freePort();
    const svc = await ctx.serviceWith('hostile', { SMTP_PORT: String(port) });
    const main = await ctx.tenant('main');
    const address = `hostile-${Date.now()}@bench.invalid`;
    const created = await fetch(`${svc.url}/api/channels`, {
      method: 'POST',
      headers: { ...auth(main), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'email', name: `Bench hostile ${address}`, address, default_team_id: null }),
    });
    if (created.status !== 201) throw new Error(`creating the e-mail channel: ${created.status} ${await created.text()}`);
    const envelope = (i: number) => ({ to: address, from: `m${i}@customer.invalid`, messageId: `<hostile.${Date.now()}.${i}@customer.invalid>` });

    // The mails are made before anything is measured (the 20 MB ones take this process a moment).
    const attribution = Array.from({ length: quick ? 4 : 20 }, (_, i) => attributionMail(envelope(i), i % 2 ? 10_000 : 2_000));
    const html = Array.from({ length: quick ? 1 : 3 }, (_, i) => bigHtmlMail(envelope(100 + i), quick ? 5 * 1024 * 1024 : 20 * 1024 * 1024));
    // One message first: the parser thread starts and loads its modules, which is not what is measured.
    await sendMail(port, { to: address, from: 'warm@customer.invalid', data: attributionMail(envelope(999), 10) });

    const idle = new Prober(svc.url, { maxProbes: quick ? 100 : 300 });
    await idle.during(() => Promise.resolve(), quick ? 100 : 300);

    const hostile = new Prober(svc.url, { maxProbes: 20_000 });
    const answers: { kind: 'attribution' | 'html'; ms: number; result: SendResult | null }[] = [];
    const timed = async (kind: 'attribution' | 'html', data: Buffer) => {
      const started = performance.now();
      const result = await Promise.race([
        sendMail(port, { to: address, from: 'm@customer.invalid', data }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), DEADLINE_MS).unref()),
      ]);
      answers.push({ kind, ms: performance.now() - started, result });
    };
    const started = performance.now();
    await hostile.during(() => Promise.all([...attribution.map((m) => timed('attribution', m)), ...html.map((m) => timed('html', m))]), 100);
    const seconds = (performance.now() - started) / 1000;
    await ctx.stopServiceWith('hostile');

    const of = (kind: string) => answers.filter((a) => a.kind === kind);
    const codes = [...new Set(answers.map((a) => a.result?.code ?? 'none'))].join(', ');
    const unanswered = answers.filter((a) => a.result === null).length;
    const ms = (xs: number[]) => ({ p50: percentile(xs, 50), max: Math.max(...xs) });
    const attributionMs = ms(of('attribution').map((a) => a.ms));
    const htmlMs = ms(of('html').map((a) => a.ms));
    return [
      row({
        scenario: 'email hostile',
        figure: `/healthz p99 while ${attribution.length} attribution mails and ${html.length} × ${quick ? 5 : 20} MB HTML mails arrive at once`,
        unit: 'ms',
        ours: hostile.p99(),
        baselineLabel: '/healthz p99 idle, ms',
        baseline: idle.p99(),
        target: { kind: 'ratio<=', value: 3 },
        ...(unanswered ? { status: 'fail' as const } : {}),
        note:
          `${answers.length} mails answered in ${seconds.toFixed(1)} s (codes ${codes}${unanswered ? `; ${unanswered} unanswered after ${DEADLINE_MS / 1000} s` : ''}); ` +
          `attribution mails answered in ${attributionMs.p50.toFixed(0)} ms (p50), ${attributionMs.max.toFixed(0)} ms (max); ` +
          `HTML mails ${htmlMs.p50.toFixed(0)} ms (p50), ${htmlMs.max.toFixed(0)} ms (max); ` +
          `${hostile.times.length} probes under load, ${idle.times.length} idle`,
        details: {
          probes: { hostile: hostile.times.length, idle: idle.times.length },
          p50: { hostile: percentile(hostile.times, 50), idle: percentile(idle.times, 50) },
          max: { hostile: Math.max(...hostile.times), idle: Math.max(...idle.times) },
          attributionMs,
          htmlMs,
          codes,
          unanswered,
        },
      }),
    ];
  },
};
