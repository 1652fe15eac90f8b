// What the e-mail tests drive the channel with: a real SMTP client from npm
// (nodemailer's SMTPConnection) as the sending MTA, a receiving SMTP server
// standing for the world (the relay's destination), and a DNS zone of our own
// for mailauth (SPF, DKIM, DMARC), so no query leaves the machine. Nothing here
// needs a program outside npm; the interop checks against Debian's swaks and
// Postfix are the system tier (*.system.test.ts, `npm run test:system`).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { simpleParser, type ParsedMail } from 'mailparser';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { SMTPServer } from 'smtp-server';
import type { TestService } from '../support/service.js';

export { txtDnsServer } from './txt-dns-server.js';

/** A message to send: the envelope, and either the whole text (`data`) or headers, a body and attachments. */
export interface Outgoing {
  /** envelope recipient (the first of a list is the default To header) */
  to: string | string[];
  /** envelope sender; '' (or '<>') is the null sender of bounces */
  from: string;
  /** header lines (`Name: value`); one replaces the default header of its name (Date, To, From, Subject, Message-Id) */
  headers?: string[];
  body?: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
  /** the message exactly as sent, instead of headers and body */
  data?: string | Buffer;
  /** `require`: STARTTLS or nothing (as swaks --tls); default: plain SMTP even where TLS is offered */
  tls?: 'require';
  helo?: string;
}

/** How the server answered: accepted, or refused at a stage with its reply. The transcript is the whole dialogue. */
export interface SendResult {
  accepted: boolean;
  /** where the server refused (null when accepted) */
  refusedAt: 'connect' | 'mail' | 'rcpt' | 'data' | null;
  code: number | null;
  response: string;
  /** whether the message went over TLS */
  secure: boolean;
  /** recipients refused at RCPT while others were taken, with the server's code */
  rejected: { address: string; code: number | null }[];
  transcript: string;
}

const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');

/** The message text: default headers (overridden by name), then the body, as multipart/mixed when it has attachments. */
export function compose(o: Outgoing): Buffer {
  if (o.data !== undefined) return Buffer.isBuffer(o.data) ? o.data : Buffer.from(crlf(o.data));
  const defaults: [string, string][] = [
    ['Date', new Date().toUTCString()],
    ['To', [o.to].flat()[0]!],
    ['From', o.from || 'MAILER-DAEMON'],
    ['Subject', 'test'],
    ['Message-Id', `<${randomBytes(8).toString('hex')}@${o.helo ?? 'mx.customer.example'}>`],
  ];
  const given = (o.headers ?? []).map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()] as [string, string]);
  const names = new Set(given.map(([n]) => n.toLowerCase()));
  const headers = [...defaults.filter(([n]) => !names.has(n.toLowerCase())), ...given];
  const body = o.body ?? 'This is a test mailing';
  if (!o.attachments?.length) return Buffer.from(crlf([...headers.map(([n, v]) => `${n}: ${v}`), '', body, ''].join('\n')));
  const boundary = `----=_Part_${randomBytes(8).toString('hex')}`;
  const lines = [
    ...headers.map(([n, v]) => `${n}: ${v}`),
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
  ];
  for (const a of o.attachments) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${a.contentType}; name="${a.filename}"`,
      `Content-Disposition: attachment; filename="${a.filename}"`,
      'Content-Transfer-Encoding: base64',
      '',
      ...(a.content.toString('base64').match(/.{1,76}/g) ?? []),
    );
  }
  lines.push(`--${boundary}--`, '');
  return Buffer.from(crlf(lines.join('\n')));
}

/**
 * The message as a stream of 64 KiB chunks, as an MTA reads a spool file: handed one Buffer, the client would
 * dot-stuff a 20 MB message in one go, and the tests that run the service in this same process would measure the
 * client's stall as the service's.
 */
function chunked(b: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < b.length; i += 65_536) yield b.subarray(i, i + 65_536);
    })(),
  );
}

const stageOf = (command: string | undefined): SendResult['refusedAt'] => {
  const c = (command ?? '').toUpperCase();
  if (c.startsWith('RCPT')) return 'rcpt';
  if (c.startsWith('MAIL')) return 'mail';
  if (c === 'DATA' || c.startsWith('DATA')) return 'data';
  return 'connect';
};

/** Sends one message over SMTP to 127.0.0.1:port, as a sending MTA would (EHLO, MAIL, RCPT, DATA, QUIT). */
export async function sendMail(port: number, o: Outgoing): Promise<SendResult> {
  return (await sendMails(port, [o]))[0]!;
}

/**
 * Sends messages one after another over one connection (an MTA with a queue for this host does). Once one is
 * refused at connect, or the server closes the connection, the rest get that same answer.
 */
export function sendMails(port: number, list: Outgoing[]): Promise<SendResult[]> {
  const o = list[0]!;
  const transcript: string[] = [];
  const log =
    (level: string) =>
    (_meta: unknown, msg: string, ...args: unknown[]) =>
      // Cut: the client logs a message's whole text, and building 20 MB strings here would stall the service under test too.
      transcript.push(
        `${level} ${String(msg)
          .slice(0, 2000)
          .replace(/%s/g, () => String(args.shift()).slice(0, 2000))}`,
      );
  const logger = { level: () => undefined, trace: log('T'), debug: log('D'), info: log('I'), warn: log('W'), error: log('E'), fatal: log('F') };
  const conn = new SMTPConnection({
    host: '127.0.0.1',
    port,
    name: o.helo ?? 'mx.customer.example',
    ignoreTLS: o.tls !== 'require',
    requireTLS: o.tls === 'require',
    tls: { rejectUnauthorized: false },
    logger: logger as never,
    debug: true,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    // A hostile message may be parsed for the whole budget (two attempts) before it is answered, and a service's
    // first message waits for its parser thread to load its modules (under tsx, seconds of CPU; under a CPU hog
    // beside other suites, a minute was seen). RFC 5321 §4.5.3.2.6 has an MTA wait 10 minutes for that answer;
    // mocha's timeout ends a test that hangs before this does.
    socketTimeout: 300_000,
  });
  return new Promise((resolve) => {
    const results: SendResult[] = [];
    let done = false;
    let secure = false;
    const finish = () => {
      if (done) return;
      done = true;
      try {
        conn.quit();
      } catch {
        conn.close();
      }
      resolve(results.map((r) => ({ ...r, transcript: transcript.join('\n') })));
    };
    const record = (r: Omit<SendResult, 'transcript' | 'secure' | 'rejected'> & { rejected?: SendResult['rejected'] }) => {
      secure = secure || conn.secure;
      results.push({ rejected: [], ...r, secure, transcript: '' });
    };
    const refused = (err: SMTPConnection.SMTPError & { command?: string }) => ({
      accepted: false,
      refusedAt: stageOf(err.command),
      code: err.responseCode ?? null,
      response: err.response ?? err.message,
    });
    // A connection-level failure answers every message not yet answered.
    conn.on('error', (err: SMTPConnection.SMTPError & { command?: string }) => {
      while (results.length < list.length) record(refused(err));
      finish();
    });
    const next = (i: number) => {
      if (i >= list.length || done) return finish();
      const m = list[i]!;
      const from = m.from === '<>' ? '' : m.from;
      conn.send({ from, to: [m.to].flat() }, chunked(compose(m)), (sendErr, info) => {
        if (sendErr) record(refused(sendErr));
        else {
          const response = info.response ?? '';
          const rejectedErrors = (info.rejectedErrors ?? []) as (Error & { recipient?: string; responseCode?: number })[];
          record({
            accepted: true,
            refusedAt: null,
            code: Number(/^\d+/.exec(response)?.[0] ?? 250),
            response,
            rejected: rejectedErrors.map((e) => ({ address: e.recipient ?? '', code: e.responseCode ?? null })),
          });
        }
        next(i + 1);
      });
    };
    conn.connect((err) => {
      if (err) {
        while (results.length < list.length) record(refused(err));
        return finish();
      }
      next(0);
    });
  });
}

export interface Received {
  rcpt: string[];
  from: string;
  raw: Buffer;
  mail: ParsedMail;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The receiving server. A recipient's local part picks what it answers: `data550…` a 550 after DATA (a
 * permanent refusal), `flaky451…` a 451 on its first delivery and 250 after, anything else 250.
 */
export class Sink {
  readonly received: Received[] = [];
  private readonly seenFlaky = new Set<string>();
  private server!: SMTPServer;
  port = 0;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      disableReverseLookup: true,
      logger: false,
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const rcpt = session.envelope.rcptTo.map((r) => r.address);
          const local = rcpt[0]!.split('@')[0]!;
          if (local.startsWith('data550')) return cb(smtpError(550, '5.1.1 No such user here (test)'));
          if (local.startsWith('flaky451') && !this.seenFlaky.has(rcpt[0]!)) {
            this.seenFlaky.add(rcpt[0]!);
            return cb(smtpError(451, '4.3.0 Mailbox busy, try later (test)'));
          }
          const raw = Buffer.concat(chunks);
          void simpleParser(raw).then((mail) => {
            this.received.push({ rcpt, from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', raw, mail });
            cb(null, 'Queued (test)');
          });
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  to(address: string): Received[] {
    return this.received.filter((r) => r.rcpt.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** An RSA key pair for DKIM: the private key (PEM) and the DNS record's p= value. */
export function dkimKeys(): { privateKey: string; publicKey: string } {
  const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: k.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

/** A resolver over a zone of TXT records (dns.promises.resolve's contract: misses throw ENOTFOUND). */
export function zoneResolver(zone: Record<string, string>) {
  return async (name: string, rr: string): Promise<string[][]> => {
    const v = rr === 'TXT' ? zone[name.toLowerCase()] : undefined;
    if (v !== undefined) return [[v]];
    throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
}

/**
 * customer.example as the e-mail tests publish it: SPF allows 127.0.0.1, DMARC `p=none`. A message from there
 * sent from 127.0.0.1 has an aligned DMARC pass: authenticated, so it threads.
 */
export const CUSTOMER_ZONE: Record<string, string> = {
  'customer.example': 'v=spf1 ip4:127.0.0.1 -all',
  '_dmarc.customer.example': 'v=DMARC1; p=none',
};

/**
 * The trace headers the receiving MTA of a forwarder adds (raw MIME posted over HTTP has no SMTP session: mailauth
 * reads the client's address from the top Received header and the envelope sender from Return-Path).
 */
export const receivedFrom127 = (sender: string): string[] => [
  `Return-Path: <${sender}>`,
  `Received: from mx.customer.example (mx.customer.example [127.0.0.1]) by mx.widgets.example with ESMTP id t1; ${new Date().toUTCString()}`,
];

/**
 * Proves the workspace owns `domain` as an operator would: adds it, publishes its TXT record in the test's zone
 * (`records`, the object a zoneResolver answers from) and verifies it. Returns the domain's id.
 */
export async function verifyDomainInZone(
  t: TestService,
  as: { cookie: string; workspace: string } | { key: string },
  records: Record<string, string>,
  domain: string,
): Promise<string> {
  const added = await t.client.post('/api/email_domains', { domain }, as);
  if (added.status !== 201) throw new Error(`adding ${domain}: ${added.status} ${added.text}`);
  records[added.body.txt_record.name] = added.body.txt_record.value;
  const verified = await t.client.post(`/api/email_domains/${added.body.id}/verify`, undefined, as);
  if (verified.status !== 200 || verified.body.status !== 'verified') throw new Error(`verifying ${domain}: ${verified.status} ${verified.text}`);
  return added.body.id as string;
}
