// The SMTP receiver (smtp-server), run in the service process when SMTP_PORT is
// set. It accepts mail only for the addresses of e-mail channels (any other
// recipient: 550 5.1.1), takes a message into memory up to SMTP_MAX_BYTES
// (552 beyond; nothing is ever spooled to disk), and answers 250 only once the
// message is filed, so a crash before that makes the sending MTA try again
// (and deduplication files nothing twice). Unreadable MIME gets 554, a
// database that does not answer 451: neither ever brings the receiver down.
// Messages are parsed in worker threads within a budget (mail-parser.ts): one
// over it even as text gets 552 5.3.4, for good. The receiver holds at most
// SMTP_MAX_CLIENTS connections (421 beyond), SMTP_MAX_RECIPIENTS recipients a
// message (452, RFC 5321 §4.5.3.1.10: the sender sends the rest again) and
// SMTP_MAX_MESSAGES_PER_CONNECTION messages a connection (421: it reconnects).
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { prefaulter, SharedGather, type GatherStats } from '../../platform/offload.js';
import type { CoreDeps, Worker } from '../capability.js';
import { channelByAddress, type ChannelRow } from '../channels/index.js';
import { baseAddress } from './addresses.js';
import { receiveEmail, TooComplex, Unreadable } from './inbound.js';

export interface SmtpReceiver extends Worker {
  /** the port it listens on (SMTP_PORT 0: one the system chose) */
  port(): number;
  /**
   * What gathering messages has cost the event loop since start (bytes copied, buffer grows), and the pages the
   * prefaulter's thread has faulted in for it: the tests' view of the receive path, which has no clock in it.
   */
  gathering(): Promise<GatherStats & { prefaultedPages: number }>;
}

const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

export function smtpReceiver(
  deps: CoreDeps,
  opts: {
    port: number;
    host: string;
    maxBytes: number;
    maxClients: number;
    maxRecipients: number;
    maxMessagesPerConnection: number;
    tls: { certFile: string; keyFile: string } | null;
  },
): SmtpReceiver {
  const owner = deps.ownerDb ?? deps.db;
  // A disabled channel receives nothing, as its signed routes answer the empty 401: its address is unknown here (550).
  const lookup = (address: string): Promise<ChannelRow | undefined> =>
    deps.scope.outside(() => channelByAddress(owner, baseAddress(address))).then((c) => (c?.enabled === false ? undefined : c));
  const tls = opts.tls ? { cert: readFileSync(opts.tls.certFile), key: readFileSync(opts.tls.keyFile) } : null;
  const prefault = prefaulter();
  const gatherStats: GatherStats = { bytes: 0, grows: 0 };

  async function onData(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    // Gathered chunk by chunk into shared memory, which the parser's thread reads without a copy (offload.ts,
    // SharedGather): each chunk is copied once, as it arrives, into pages the prefaulter's thread has faulted in
    // ahead of it (a fault on the event loop cost more than the copy). Per chunk (a 64 KiB socket read) the event
    // loop then runs smtp-server's dot-unstuffing (a byte loop in JS, and a copy of the chunk) and this copy: about
    // 0.3 ms of CPU, so no task of the receive path is long; what remains long on a busy loop is a GC pause.
    const gather = new SharedGather(opts.maxBytes, prefault, gatherStats);
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // Past the limit the rest is read and dropped (smtp-server must see the end of DATA to answer).
      if (size + chunk.length <= opts.maxBytes) gather.append(chunk);
      size += chunk.length;
    }
    if (stream.sizeExceeded || size > opts.maxBytes) throw smtpError(552, `5.3.4 Message too big: at most ${opts.maxBytes} bytes`);
    const raw = gather.bytes();
    const mailFrom = session.envelope.mailFrom;
    // One filing per channel the message names, whatever the number of its recipients there.
    const seen = new Set<string>();
    let filed = 0;
    for (const rcpt of session.envelope.rcptTo) {
      const channel = await lookup(rcpt.address);
      if (!channel || seen.has(channel.id)) continue;
      seen.add(channel.id);
      await receiveEmail(deps, channel, raw, {
        ip: session.remoteAddress ?? null,
        helo: session.hostNameAppearsAs ?? null,
        sender: mailFrom === false ? null : mailFrom.address,
        recipient: rcpt.address,
      });
      filed++;
    }
    return `2.0.0 Filed (${filed})`;
  }

  const server = new SMTPServer({
    name: 'conversation-service',
    banner: 'conversation service',
    logger: false,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    disableReverseLookup: true,
    size: opts.maxBytes,
    maxClients: opts.maxClients,
    maxRecipients: opts.maxRecipients,
    onMailFrom(_address, session, callback) {
      // session.transaction counts this connection's MAIL commands, this one included.
      if (session.transaction > opts.maxMessagesPerConnection)
        return callback(smtpError(421, `4.7.0 At most ${opts.maxMessagesPerConnection} messages a connection: connect again`));
      callback();
    },
    onRcptTo(address, _session, callback) {
      lookup(address.address).then(
        (channel) => callback(channel ? undefined : smtpError(550, '5.1.1 No such mailbox here')),
        (e: unknown) => {
          deps.log.warn({ err: e }, 'smtp receiver: recipient lookup failed');
          callback(smtpError(451, '4.3.0 Try again later'));
        },
      );
    },
    onData(stream, session, callback) {
      onData(stream, session).then(
        (message) => callback(null, message),
        (e: unknown) => {
          if ((e as { responseCode?: number }).responseCode) return callback(e as Error);
          if (e instanceof Unreadable) return callback(smtpError(554, '5.6.0 The message cannot be read'));
          if (e instanceof TooComplex) return callback(smtpError(552, '5.3.4 The message is too complex to read within our limits'));
          deps.log.warn({ err: e }, 'smtp receiver: could not file a message');
          callback(smtpError(451, '4.3.0 Try again later'));
        },
      );
    },
  });
  // A client that misbehaves ends its own session; the receiver goes on.
  server.on('error', (e) => deps.log.warn({ err: e }, 'smtp receiver: connection error'));

  let port = 0;
  return {
    name: 'smtp-receiver',
    port: () => port,
    gathering: async () => ({ ...gatherStats, prefaultedPages: await prefault.settled() }),
    async start() {
      await new Promise<void>((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(opts.port, opts.host, () => {
          server.server.off('error', reject);
          resolve();
        });
      });
      port = (server.server.address() as AddressInfo).port;
      deps.log.info({ host: opts.host, port }, 'smtp receiver listening');
    },
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prefault.close();
    },
  };
}
