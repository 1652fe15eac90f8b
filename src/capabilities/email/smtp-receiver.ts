// The SMTP receiver (smtp-server), run when SMTP_PORT is set. It accepts mail
// only for the addresses of e-mail channels (any other recipient: 550 5.1.1),
// takes a message into memory up to SMTP_MAX_BYTES (552 beyond; nothing is ever
// spooled to disk), and answers 250 only once the message is filed, so a crash
// before that makes the sending MTA try again (and deduplication files nothing
// twice). Unreadable MIME gets 554, a database that does not answer 451:
// neither ever brings the receiver down. Messages are parsed in worker threads
// within a budget (mail-parser.ts): one over it even as text gets 552 5.3.4,
// for good. The receiver holds at most SMTP_MAX_CLIENTS connections (421
// beyond), SMTP_MAX_RECIPIENTS recipients a message (452, RFC 5321
// §4.5.3.1.10: the sender sends the rest again) and
// SMTP_MAX_MESSAGES_PER_CONNECTION messages a connection (421: it reconnects).
//
// The sockets run in a thread of their own (smtp.thread.ts): receiving 60 MB of
// mail at once on the event loop cost it 0.5 s of CPU in socket reads and
// dot-unstuffing and a mark-compact every 200 ms (the bench's email-hostile row:
// /healthz p99 18 times its idle figure). Here, on the event loop, only the
// recipients' look-ups and the filing run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { GatherStats } from '../../platform/shared-gather.js';
import type { CoreDeps, Worker as ServiceWorker } from '../capability.js';
import { channelByAddress, type ChannelRow } from '../channels/index.js';
import { baseAddress } from './addresses.js';
import { receiveEmail, TooComplex, Unreadable } from './inbound.js';
import type { Answer, Envelope, FromThread, ReceiverOptions, ToThread } from './smtp.thread.js';

export interface SmtpReceiver extends ServiceWorker {
  /** the port it listens on (SMTP_PORT 0: one the system chose) */
  port(): number;
  /**
   * What gathering messages has cost the thread that receives them (bytes copied, buffer grows) and which thread
   * that is (never the event loop's, 0): the tests' view of the receive path, which has no clock in it.
   */
  gathering(): Promise<GatherStats & { threadId: number }>;
}

// The thread's module beside this one, with this one's extension: .ts under tsx, .js in dist/ and the tests' copy.
const here = fileURLToPath(import.meta.url);
const THREAD = pathToFileURL(path.join(path.dirname(here), `smtp.thread${path.extname(here)}`)).href;
/**
 * The thread's entry, which imports the module. Under tsx (npm start, the tests) it registers tsx first: a thread
 * whose entry is a .ts file, or that imports one at once, is refused even with `--import tsx` (its loader is not
 * ready yet), which piscina's threads escape only by importing their task later.
 */
const BOOT =
  path.extname(here) === '.ts'
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(THREAD)}); })`
    : `import(${JSON.stringify(THREAD)})`;

/** The thread's heap: the bytes of mail are shared memory outside it; this is smtp-server's and the sockets' own. */
const THREAD_HEAP_MB = 64;

export function smtpReceiver(deps: CoreDeps, opts: Omit<ReceiverOptions, 'tls'> & { tls: { certFile: string; keyFile: string } | null }): SmtpReceiver {
  const owner = deps.ownerDb ?? deps.db;
  // A disabled channel receives nothing, as its signed routes answer the empty 401: its address is unknown here (550).
  const lookup = (address: string): Promise<ChannelRow | undefined> =>
    deps.scope.outside(() => channelByAddress(owner, baseAddress(address))).then((c) => (c?.enabled === false ? undefined : c));
  const threadOptions: ReceiverOptions = {
    ...opts,
    tls: opts.tls ? { cert: readFileSync(opts.tls.certFile), key: readFileSync(opts.tls.keyFile) } : null,
  };

  async function recipient(address: string): Promise<Answer> {
    try {
      return (await lookup(address)) ? { ok: 'Accepted' } : { code: 550, message: '5.1.1 No such mailbox here' };
    } catch (e) {
      deps.log.warn({ err: e }, 'smtp receiver: recipient lookup failed');
      return { code: 451, message: '4.3.0 Try again later' };
    }
  }

  async function file(raw: Buffer, envelope: Envelope): Promise<Answer> {
    try {
      // One filing per channel the message names, whatever the number of its recipients there.
      const seen = new Set<string>();
      let filed = 0;
      for (const rcpt of envelope.recipients) {
        const channel = await lookup(rcpt);
        if (!channel || seen.has(channel.id)) continue;
        seen.add(channel.id);
        await receiveEmail(deps, channel, raw, { ip: envelope.ip, helo: envelope.helo, sender: envelope.sender, recipient: rcpt });
        filed++;
      }
      return { ok: `2.0.0 Filed (${filed})` };
    } catch (e) {
      if (e instanceof Unreadable) return { code: 554, message: '5.6.0 The message cannot be read' };
      if (e instanceof TooComplex) return { code: 552, message: '5.3.4 The message is too complex to read within our limits' };
      deps.log.warn({ err: e }, 'smtp receiver: could not file a message');
      return { code: 451, message: '4.3.0 Try again later' };
    }
  }

  let thread: Worker | null = null;
  let port = 0;
  let stopping = false;
  let asks = 0;
  const gatherings = new Map<number, (s: GatherStats & { threadId: number }) => void>();
  const send = (w: Worker, m: ToThread) => w.postMessage(m);

  /** Starts the thread; resolves once it listens (on `listenPort`: the configured one, then the one it got). */
  function startThread(listenPort: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const w = new Worker(BOOT, {
        eval: true,
        // None of the process's options: V8's (dist's heap flags) are refused by a thread, and tsx is registered by BOOT.
        execArgv: [],
        workerData: { ...threadOptions, port: listenPort },
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      });
      thread = w;
      let listening = false;
      w.on('message', (m: FromThread) => {
        switch (m.kind) {
          case 'listening':
            listening = true;
            port = m.port;
            return resolve();
          case 'failed':
            return reject(new Error(`smtp receiver: cannot listen on ${opts.host}:${listenPort}: ${m.message}`));
          case 'rcpt':
            return void recipient(m.address).then((answer) => send(w, { kind: 'answer', id: m.id, answer }));
          case 'data': {
            const raw = Buffer.from(m.raw.buffer, m.raw.byteOffset, m.raw.byteLength);
            return void file(raw, m.envelope).then((answer) => send(w, { kind: 'answer', id: m.id, answer }));
          }
          case 'log':
            return deps.log.warn({ err: m.err }, m.message);
          case 'gathering':
            gatherings.get(m.id)?.(m.stats);
            return void gatherings.delete(m.id);
          case 'closed':
            return void w.terminate();
        }
      });
      let failure: unknown = null;
      w.on('error', (e) => {
        failure = e;
        deps.log.error({ err: e }, 'smtp receiver: the thread failed');
      });
      w.on('exit', () => {
        if (thread === w) thread = null;
        if (!listening) return reject(new Error(`smtp receiver: the thread ended before it listened: ${String(failure)}`));
        // Its connections are gone with it (their MTAs send again); a new thread takes the same port.
        if (!stopping) startThread(port).catch((e: unknown) => deps.log.error({ err: e }, 'smtp receiver: could not start again'));
      });
    });
  }

  return {
    name: 'smtp-receiver',
    port: () => port,
    gathering: () =>
      new Promise((resolve, reject) => {
        if (!thread) return reject(new Error('smtp receiver: not running'));
        const id = ++asks;
        gatherings.set(id, resolve);
        send(thread, { kind: 'gathering', id });
      }),
    async start() {
      stopping = false;
      await startThread(opts.port);
      deps.log.info({ host: opts.host, port }, 'smtp receiver listening');
    },
    async stop() {
      stopping = true;
      const w = thread;
      if (!w) return;
      // smtp-server's close: no new connections, the open ones end (a message in DATA is answered first).
      await new Promise<void>((resolve) => {
        w.once('exit', () => resolve());
        send(w, { kind: 'close' });
      });
    },
  };
}
