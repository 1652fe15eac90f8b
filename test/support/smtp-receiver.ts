// A real SMTP server on 127.0.0.1 (smtp-server) for tests of what the service
// sends through its relay (SMTP_RELAY_URL): it keeps the exact bytes of every
// message with its envelope and the user that authenticated, and can refuse
// messages the way a relay does (a 4xx to try later, a 5xx for good).
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { eventually } from './events.js';

export interface ReceivedMail {
  raw: string;
  from: string | null;
  to: string[];
  user: string | null;
}

export class SmtpReceiver {
  readonly received: ReceivedMail[] = [];
  private server!: SMTPServer;
  port = 0;
  /** what to answer the n-th message: accept it (null), or refuse it with this code */
  refuse: (n: number) => number | null = () => null;

  constructor(private readonly credentials: { user: string; pass: string } = { user: 'relay-user', pass: 'relay pass/word' }) {}

  async start(): Promise<this> {
    this.server = new SMTPServer({
      // The service talks plain SMTP to a relay on the loopback in tests; STARTTLS would need a certificate.
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, done) =>
        auth.username === this.credentials.user && auth.password === this.credentials.pass
          ? done(null, { user: auth.username })
          : done(Object.assign(new Error('535 5.7.8 authentication failed'), { responseCode: 535 })),
      onData: (stream, session: SMTPServerSession, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const n = this.received.length;
          const code = this.refuse(n);
          this.received.push({
            raw: Buffer.concat(chunks).toString('utf8'),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            to: session.envelope.rcptTo.map((r) => r.address),
            user: (session.user as string | undefined) ?? null,
          });
          if (code === null) return done();
          done(Object.assign(new Error(`${code} refused by the test relay`), { responseCode: code }));
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** SMTP_RELAY_URL for the service: plain SMTP with the receiver's credentials. */
  get url(): string {
    return `smtp://${encodeURIComponent(this.credentials.user)}:${encodeURIComponent(this.credentials.pass)}@127.0.0.1:${this.port}`;
  }

  /** Waits until at least `n` messages arrived. */
  async waitFor(n: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    await eventually(
      () => this.received.length,
      (k) => k >= n,
      timeoutMs,
    );
    return this.received;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
