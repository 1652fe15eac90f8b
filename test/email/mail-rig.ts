// What the e-mail tests drive the channel with: Debian's swaks as the sending
// MTA, a receiving SMTP server standing for the world (the relay's destination),
// and a DNS zone of our own for mailauth (SPF, DKIM, DMARC), so no query leaves
// the machine.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SwaksResult {
  code: number;
  output: string;
}

/** Runs swaks against the receiver; its exit code says where the server refused (0 ok, 24 RCPT, 26 DATA). */
export function swaks(port: number, args: string[]): Promise<SwaksResult> {
  return new Promise((resolve) => {
    execFile(
      'swaks',
      ['--server', `127.0.0.1:${port}`, '--helo', 'mx.customer.example', '--hide-informational', ...args],
      { timeout: 20_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, output: `${stdout}${stderr}` });
      },
    );
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
