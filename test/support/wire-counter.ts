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
    const conn: Conn = { n: ++this.conns, buf: Buffer.alloc(0), startup: true, parsed: new Map(), bound: new Map(), answered: true, trips: 0 };
    const end = () => {
      this.sockets.delete(client);
      this.sockets.delete(server);
      client.destroy();
      server.destroy();
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      try {
        this.read(conn, chunk);
      } catch {
        // a message we cannot read: count nothing more on this connection, pass its bytes on
        conn.startup = true;
        conn.buf = Buffer.alloc(0);
      }
      server.write(chunk);
    });
    server.on('data', (chunk: Buffer) => {
      conn.answered = true;
      client.write(chunk);
    });
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
        if (code !== SSL_REQUEST && code !== GSS_REQUEST) conn.startup = false;
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
        this.statement(conn, cstring(body, 0)[0]);
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
