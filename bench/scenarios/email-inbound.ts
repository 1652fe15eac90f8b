// email inbound: e-mail over SMTP into the e-mail channel's receiver (a second
// service process on the same database, with SMTP_PORT set), each message a new
// conversation, against the api channel's signed inbound posts sent to that
// same process in the same run. Both file the same events (a contact, a
// conversation, a part); the e-mail path adds parsing, sender authentication
// and the email.received event. The receiver's mailauth asks DNS about the
// senders' domain (customer.invalid: no such domain), of a resolver on this
// machine (bench/workers/dns-resolver.ts), as production asks its own.
import { performance } from 'node:perf_hooks';
import { createTransport } from 'nodemailer';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { row } from '../lib/report.js';
import type { Generator } from '../workers/load.js';
import { auth, load, loadDetails, localResolver, type Scenario } from './shared.js';

export const emailInbound: Scenario = {
  name: 'email-inbound',
  aliases: ['email'],
  needsService: true,
  async run(ctx) {
    const port = await freePort();
    // The bench measures filing mail, not proving a domain: bench.invalid is nobody's to verify.
    // The senders' domain asked of a resolver on this machine, as in production; not of whatever the machine's is.
    const resolver = await localResolver();
    const svc = await ctx.serviceWith('email', { SMTP_PORT: String(port), EMAIL_DOMAIN_VERIFICATION: 'off', ...resolver.env });
    const main = await ctx.tenant('main');
    const address = `support-${Date.now()}@bench.invalid`;
    const created = await fetch(`${svc.url}/api/channels`, {
      method: 'POST',
      headers: { ...auth(main), 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'email', name: `Bench mail ${address}`, address, default_team_id: null }),
    });
    if (created.status !== 201) throw new Error(`creating the e-mail channel: ${created.status} ${await created.text()}`);

    const conns = ctx.sizes.connections;
    const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, pool: true, maxConnections: conns, maxMessages: Infinity });
    const stamp = Date.now();
    let n = 0;
    const sendFor = async (seconds: number): Promise<number> => {
      const until = performance.now() + seconds * 1000;
      let sent = 0;
      await Promise.all(
        Array.from({ length: conns }, async () => {
          while (performance.now() < until) {
            const i = n++;
            await transport.sendMail({
              from: `"Customer ${i % 1000}" <c${i % 1000}@customer.invalid>`,
              to: address,
              subject: `Bench ${i}`,
              text: 'Hello, where is my order?',
              messageId: `<bench.${stamp}.${i}@customer.invalid>`,
            });
            sent++;
          }
        }),
      );
      return sent;
    };
    await sendFor(ctx.sizes.warmupS);
    const started = performance.now();
    const sent = await sendFor(ctx.sizes.loadS);
    const smtpRate = sent / ((performance.now() - started) / 1000);
    transport.close();

    const gen: Generator = { kind: 'inbound', path: `/api/channels/${main.channelId}/inbound`, secret: main.channelSecret, contacts: 1000 };
    const api = await load(ctx, svc.url, gen, {}, svc.pid);
    await ctx.stopServiceWith('email');
    const asked = await resolver.stop();
    return [
      row({
        scenario: 'email inbound',
        figure: `new messages over SMTP (nodemailer pool, ${conns} conns) vs signed api inbound posts, one process`,
        unit: 'msg/s',
        ours: smtpRate,
        baselineLabel: 'api channel inbound, req/s',
        baseline: api.rps,
        target: { kind: 'ratio>=', value: 0.3 },
        note: `${sent} messages in ${ctx.sizes.loadS} s over SMTP (the local resolver answered ${String(asked)} DNS questions); the api inbound on the same process: ${api.rps.toFixed(0)} req/s`,
        details: { smtp: { sent, seconds: ctx.sizes.loadS, connections: conns }, api: loadDetails(api) },
      }),
    ];
  },
};
