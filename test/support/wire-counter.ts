// Counts what the service sends Postgres, on the wire: a TCP proxy between the
// service and Postgres that reads the frontend protocol (not the driver's API,
// which statements sent on a pg connection directly would bypass) and, inside
// a window the test opens and closes, records
//   - each statement executed: a simple-protocol Query ('Q') or an Execute ('E')
//     of the extended protocol, with its text (from the Parse that named it,
//     so a named prepared statement bound again still shows its text), and
//   - round trips: per connection, each time the client sends a statement after
//     the server answered something since the client last sent (statements sent
//     together, pipelined, are one round trip; a statement sent only after its
//     predecessor's answer came back is another).
// A pooled connection's session setup is not counted (it is paid once per
// connection). Bytes pass through untouched.
import net from 'node:net';

export interface WireStatement {
  /** the connection's number, in the order the proxy accepted them */
  conn: number;
  text: string;
  /** the connection's round trip this statement went out in (1-based, counted from the window's start) */
  trip: number;
}

export interface WireCount {
  statements: WireStatement[];
  roundTrips: number;
}

interface Conn {
  n: number;
  buf: Buffer;
  /** before the startup message: untyped messages (SSLRequest, StartupMessage) */
  startup: boolean;
  /** prepared statement name → text ('' is the unnamed one) */
  parsed: Map<string, string>;
  /** portal name → statement text */
  bound: Map<string, string>;
  /** the server sent something since the client last sent a statement */
  answered: boolean;
  trips: number;
  /** what the client sent that the server answers with a ReadyForQuery: the startup, each Sync and each simple Query */
  asked: number;
  /** ReadyForQuery messages the server sent */
  ready: number;
  /** the server's bytes not yet read into whole messages */
  sbuf: Buffer;
  /** an SSLRequest or GSSENCRequest was sent: the server answers it with one untyped byte */
  untypedAnswers: number;
}

const SSL_REQUEST = 80877103;
const SESSION_SETUP = /^SELECT set_config\('idle_in_transaction_session_timeout'/;
const GSS_REQUEST = 80877104;

const cstring = (b: Buffer, at: number): [string, number] => {
  const end = b.indexOf(0, at);
  return [b.toString('utf8', at, end), end + 1];
};

export class WireCounter {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private conns = 0;
  private window: WireCount | null = null;
  /** the connections whose answers idle() waits for */
  private readonly live = new Set<Conn>();
  private idleWaiters: Array<() => void> = [];
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Starts counting (what was counted before is dropped). */
  open(): void {
    this.window = { statements: [], roundTrips: 0 };
  }

  /**
   * Resolves once every connection's statements have been answered (each Sync, simple Query and startup by its
   * ReadyForQuery): nothing sent is still on its way or being run. A cause to wait for, instead of a sleep.
   */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.wakeIdle();
    });
  }

  private wakeIdle(): void {
    if (this.idleWaiters.length === 0) return;
    for (const c of this.live) if (c.asked > c.ready) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Stops counting and answers what was counted since open(). */
  close(): WireCount {
    const w = this.window ?? { statements: [], roundTrips: 0 };
    this.window = null;
    return w;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: net.Socket): void {
    const server = net.connect(this.target.port, this.target.host);
    this.sockets.add(client).add(server);
    const conn: Conn = {
      n: ++this.conns,
      buf: Buffer.alloc(0),
      startup: true,
      parsed: new Map(),
      bound: new Map(),
      answered: true,
      trips: 0,
      asked: 0,
      ready: 0,
      sbuf: Buffer.alloc(0),
      untypedAnswers: 0,
    };
    this.live.add(conn);
    const end = () => {
      this.sockets.delete(client);
      this.sockets.delete(server);
      this.live.delete(conn);
      this.wakeIdle();
      client.destroy();
      server.destroy();
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      try {
        this.read(conn, chunk);
      } catch {
        // a message we cannot read: count nothing more on this connection, pass its bytes on; idle() stops
        // waiting for its answers, which it could no longer match to what was sent
        conn.startup = true;
        conn.buf = Buffer.alloc(0);
        this.live.delete(conn);
        this.wakeIdle();
      }
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      conn.answered = true;
      client.write(chunk);
      this.readAnswers(conn, chunk);
      this.wakeIdle();
    });
  }

  /** Counts the server's ReadyForQuery messages (idle()). */
  private readAnswers(conn: Conn, chunk: Buffer): void {
    conn.sbuf = conn.sbuf.length ? Buffer.concat([conn.sbuf, chunk]) : chunk;
    for (;;) {
      const b = conn.sbuf;
      if (conn.untypedAnswers > 0) {
        if (b.length < 1) return;
        conn.untypedAnswers--;
        conn.sbuf = b.subarray(1);
        continue;
      }
      if (b.length < 5) return;
      const len = b.readInt32BE(1);
      if (b.length < 1 + len) return;
      if (b[0] === 0x5a /* Z */) conn.ready++;
      conn.sbuf = b.subarray(1 + len);
    }
  }

  private read(conn: Conn, chunk: Buffer): void {
    conn.buf = conn.buf.length ? Buffer.concat([conn.buf, chunk]) : chunk;
    for (;;) {
      const b = conn.buf;
      if (conn.startup) {
        if (b.length < 8) return;
        const len = b.readInt32BE(0);
        if (b.length < len) return;
        const code = b.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSS_REQUEST) conn.untypedAnswers++;
        else {
          conn.startup = false;
          conn.asked++;
        }
        conn.buf = b.subarray(len);
        continue;
      }
      if (b.length < 5) return;
      const type = String.fromCharCode(b[0]!);
      const len = b.readInt32BE(1);
      if (b.length < 1 + len) return;
      const body = b.subarray(5, 1 + len);
      conn.buf = b.subarray(1 + len);
      if (type === 'P') {
        const [name, at] = cstring(body, 0);
        const [text] = cstring(body, at);
        conn.parsed.set(name, text);
      } else if (type === 'B') {
        const [portal, at] = cstring(body, 0);
        const [name] = cstring(body, at);
        conn.bound.set(portal, conn.parsed.get(name) ?? `<prepared ${name}>`);
      } else if (type === 'E') {
        const [portal] = cstring(body, 0);
        this.statement(conn, conn.bound.get(portal) ?? '<unknown portal>');
      } else if (type === 'Q') {
        conn.asked++;
        this.statement(conn, cstring(body, 0)[0]);
      } else if (type === 'S') {
        conn.asked++;
      }
    }
  }

  private statement(conn: Conn, text: string): void {
    // A pooled connection's session setup (createDb's afterCreate) is paid once per connection, not per write.
    if (SESSION_SETUP.test(text)) return;
    if (conn.answered) {
      conn.answered = false;
      conn.trips++;
      if (this.window) this.window.roundTrips++;
    }
    this.window?.statements.push({ conn: conn.n, text, trip: conn.trips });
  }
}
