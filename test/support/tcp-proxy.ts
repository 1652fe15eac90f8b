// A TCP proxy between the service and Postgres, for faults that a real server
// cannot be asked to make on cue: a connection lost after COMMIT reached the
// server but before its answer reached the service (the unknown-outcome case).
// Bytes pass through untouched; only the cut is ours.
import net from 'node:net';

interface Pair {
  client: net.Socket;
  server: net.Socket;
  /** the watched text was sent since the connection's last BEGIN */
  seen: boolean;
  /** a BEGIN went out and its COMMIT has not */
  inTx: boolean;
  /** COMMIT went out: hold the server's answers until it confirms, then cut */
  cutting: boolean;
  held: string;
  /** the client's first bytes (the startup message: user, database, application_name) */
  startup: string;
}

export class TcpProxy {
  private server: net.Server | null = null;
  private readonly pairs = new Set<Pair>();
  private watch: { marker: string; done: () => void } | null = null;
  port = 0;
  /** while set, connections are accepted and closed at once, as HAProxy does with no backend up */
  refusing = false;
  /** when set, only connections whose startup message contains it are refused */
  private refusingOnly: string | null = null;
  /** connections refused so far */
  refusals = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /**
   * The next COMMIT on a connection that sent `marker` inside its transaction is
   * forwarded; Postgres commits and answers, and the service's connection is cut
   * before that answer reaches it. Resolves once the cut is made.
   */
  cutAfterCommitOf(marker: string): Promise<void> {
    return new Promise((resolve) => (this.watch = { marker, done: resolve }));
  }

  /**
   * Closes every open connection (or those whose startup message, e.g. their
   * application_name, contains `only`), as HAProxy does with the sessions of a
   * primary that went down. Returns how many were closed.
   */
  cutAll(only?: string): number {
    let n = 0;
    for (const p of [...this.pairs]) {
      if (only !== undefined && !p.startup.includes(only)) continue;
      p.client.destroy();
      p.server.destroy();
      this.pairs.delete(p);
      n++;
    }
    return n;
  }

  /** Refuses new connections (accepted, then closed at once) until `refuse(false)`; `only` limits it as in cutAll. */
  refuse(on: boolean, only?: string): void {
    this.refusing = on;
    this.refusingOnly = on ? (only ?? null) : null;
  }

  /** Open connections (those whose startup message contains `only`, when given). */
  open(only?: string): number {
    return [...this.pairs].filter((p) => only === undefined || p.startup.includes(only)).length;
  }

  async close(): Promise<void> {
    for (const p of this.pairs) {
      p.client.destroy();
      p.server.destroy();
    }
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.refusing && this.refusingOnly === null) {
      this.refusals++;
      client.destroy();
      return;
    }
    const server = net.connect(this.target.port, this.target.host);
    const pair: Pair = { client, server, seen: false, inTx: false, cutting: false, held: '', startup: '' };
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (pair.startup === '') {
        pair.startup = chunk.toString('latin1');
        if (this.refusing && this.refusingOnly !== null && pair.startup.includes(this.refusingOnly)) {
          this.refusals++;
          return end();
        }
      }
      const commits = this.scan(pair, chunk.toString('latin1'));
      server.write(chunk);
      if (commits) pair.cutting = true;
    });
    server.on('data', (chunk: Buffer) => {
      if (!pair.cutting) {
        client.write(chunk);
        return;
      }
      // CommandComplete 'C' with the tag COMMIT: the server has committed. The service never hears it.
      pair.held += chunk.toString('latin1');
      if (pair.held.includes('COMMIT\u0000')) {
        const watch = this.watch;
        this.watch = null;
        end();
        watch?.done();
      }
    });
  }

  /** Walks the statements in a chunk in order; true when an armed COMMIT is among them. */
  private scan(pair: Pair, text: string): boolean {
    if (!this.watch) return false;
    const marker = this.watch.marker;
    const tokens: { at: number; what: 'begin' | 'marker' | 'commit' }[] = [];
    const find = (needle: string, what: 'begin' | 'marker' | 'commit') => {
      for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) tokens.push({ at: i, what });
    };
    find('BEGIN', 'begin');
    find(marker, 'marker');
    find('COMMIT', 'commit');
    tokens.sort((a, b) => a.at - b.at);
    // Only a marker inside a transaction arms its COMMIT: the same text in a statement of its own (the
    // Idempotency-Key's reservation, committed before the work starts) must not arm whatever COMMIT that connection
    // carries next, another transaction's (it cut the wrong one once, under load).
    for (const t of tokens) {
      if (t.what === 'begin') {
        pair.inTx = true;
        pair.seen = false;
      } else if (t.what === 'marker') pair.seen = pair.inTx;
      else {
        const armed = pair.inTx && pair.seen;
        pair.inTx = false;
        pair.seen = false;
        if (armed) return true;
      }
    }
    return false;
  }
}
