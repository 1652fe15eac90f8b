// The SMTP receiver's own thread (smtp-receiver.ts starts it): smtp-server, its
// sockets, STARTTLS, dot-unstuffing and gathering each message into shared
// memory all run here, so the bytes of mail arriving (60 MB at once in the
// bench's email-hostile row) are this thread's to read, copy and collect
// garbage for, never the API's event loop. Whether a recipient exists and
// filing a message need the service (its database, its log), so they are asked
// of the event loop over this thread's port: a message goes there as shared
// memory (no copy) with its envelope, and its answer (250, or an SMTP refusal)
// comes back. Nothing of the service is loaded here.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { SharedGather, type GatherStats } from '../../platform/shared-gather.js';

export interface ReceiverOptions {
  port: number;
  host: string;
  maxBytes: number;
  maxClients: number;
  maxRecipients: number;
  maxMessagesPerConnection: number;
  tls: { cert: Uint8Array; key: Uint8Array } | null;
}

/** The envelope of one message, as the event loop files it. */
export interface Envelope {
  ip: string | null;
  helo: string | null;
  sender: string | null;
  recipients: string[];
}

/** An SMTP answer: a 250's text, or a refusal's code and text. */
export type Answer = { ok: string } | { code: number; message: string };

/** What the thread asks of the event loop, and tells it. */
export type FromThread =
  | { kind: 'listening'; port: number }
  | { kind: 'failed'; message: string }
  | { kind: 'rcpt'; id: number; address: string }
  | { kind: 'data'; id: number; raw: Uint8Array; envelope: Envelope }
  | { kind: 'log'; message: string; err: string }
  | { kind: 'gathering'; id: number; stats: GatherStats & { threadId: number } }
  | { kind: 'closed' };

export type ToThread = { kind: 'answer'; id: number; answer: Answer } | { kind: 'gathering'; id: number } | { kind: 'close' };

/** As piscina's parser threads (offload.ts). */
const NICE_INCREMENT = 10;
const port = parentPort!;
const opts = workerData as ReceiverOptions;
const stats: GatherStats = { bytes: 0, grows: 0 };
const smtpError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

let next = 0;
const pending = new Map<number, (a: Answer) => void>();
function ask(message: { kind: 'rcpt'; address: string } | { kind: 'data'; raw: Uint8Array; envelope: Envelope }): Promise<Answer> {
  const id = ++next;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    port.postMessage({ ...message, id } satisfies FromThread);
  });
}
const reply = (callback: (e?: Error | null, message?: string) => void) => (a: Answer) =>
  'ok' in a ? callback(null, a.ok) : callback(smtpError(a.code, a.message));

async function gather(stream: SMTPServerDataStream): Promise<Buffer> {
  const g = new SharedGather(opts.maxBytes, stats);
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    // Past the limit the rest is read and dropped (smtp-server must see the end of DATA to answer).
    if (size + chunk.length <= opts.maxBytes) g.append(chunk);
    size += chunk.length;
  }
  if (stream.sizeExceeded || size > opts.maxBytes) throw smtpError(552, `5.3.4 Message too big: at most ${opts.maxBytes} bytes`);
  return g.bytes();
}

function envelopeOf(session: SMTPServerSession): Envelope {
  const from = session.envelope.mailFrom;
  return {
    ip: session.remoteAddress ?? null,
    helo: session.hostNameAppearsAs ?? null,
    sender: from === false ? null : from.address,
    recipients: session.envelope.rcptTo.map((r) => r.address),
  };
}

const server = new SMTPServer({
  name: 'conversation-service',
  banner: 'conversation service',
  logger: false,
  authOptional: true,
  disabledCommands: opts.tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
  ...(opts.tls ? { key: Buffer.from(opts.tls.key), cert: Buffer.from(opts.tls.cert) } : {}),
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
    void ask({ kind: 'rcpt', address: address.address }).then(reply(callback));
  },
  onData(stream, session, callback) {
    gather(stream).then(
      (raw) => ask({ kind: 'data', raw, envelope: envelopeOf(session) }).then(reply(callback)),
      (e: Error) => callback(e),
    );
  },
});
// A client that misbehaves ends its own session; the receiver goes on.
server.on('error', (e) => port.postMessage({ kind: 'log', message: 'smtp receiver: connection error', err: String(e) } satisfies FromThread));

port.on('message', (m: ToThread) => {
  if (m.kind === 'answer') {
    pending.get(m.id)?.(m.answer);
    pending.delete(m.id);
  } else if (m.kind === 'gathering') port.postMessage({ kind: 'gathering', id: m.id, stats: { ...stats, threadId } } satisfies FromThread);
  else if (m.kind === 'close') server.close(() => port.postMessage({ kind: 'closed' } satisfies FromThread));
});

// Receiving is background work, as parsing is (offload.ts): when the cores are busy, the scheduler runs the event
// loop (the API) first. @napi-rs/nice (piscina's optional dependency) renices this thread alone on Linux; where it
// is missing the thread runs at the process's priority.
await import('@napi-rs/nice').then(
  (m: { nice(increment: number): number }) => m.nice(NICE_INCREMENT),
  () => undefined,
);

server.server.once('error', (e) => port.postMessage({ kind: 'failed', message: e.message } satisfies FromThread));
server.listen(opts.port, opts.host, () => {
  const address = server.server.address();
  port.postMessage({ kind: 'listening', port: typeof address === 'object' && address ? address.port : 0 } satisfies FromThread);
});
