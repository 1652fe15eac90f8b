// A real HTTP receiver on 127.0.0.1 for webhook tests: keeps the raw bytes and
// headers of every POST, and answers as the test scripts it (a status per
// request, or never).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../src/platform/clock.js';
import { eventually } from '../support/events.js';

export interface Received {
  raw: Buffer;
  headers: http.IncomingHttpHeaders;
  path: string;
  /** the injected clock's time when the request arrived */
  at: Date;
}

/** What to answer the n-th request (0-based): a status, or 'hang' to never answer. */
export type Script = (n: number) => number | 'hang';

export class Receiver {
  readonly received: Received[] = [];
  private server!: http.Server;
  url = '';

  constructor(
    private readonly script: Script = () => 200,
    private readonly clock?: Clock,
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const n = this.received.length;
        this.received.push({ raw: Buffer.concat(chunks), headers: req.headers, path: req.url ?? '', at: this.clock?.now() ?? new Date() });
        const answer = this.script(n);
        if (answer === 'hang') return;
        res.statusCode = answer;
        res.end(answer >= 200 && answer < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** Waits until at least `n` requests arrived. */
  async waitFor(n: number, timeoutMs = 10_000): Promise<Received[]> {
    await eventually(
      () => this.received.length,
      (k) => k >= n,
      timeoutMs,
    );
    return this.received;
  }

  bodies(): any[] {
    return this.received.map((r) => JSON.parse(r.raw.toString('utf8')));
  }

  /**
   * The envelopes that pass `keep`, once each and in seq order. Deliveries may arrive out of order and more than
   * once (several in flight per endpoint, retries: docs/webhooks.md); in seq order, once each, they are the log's.
   */
  inSeqOrder(keep: (body: any) => boolean = () => true): any[] {
    return [
      ...new Map(
        this.bodies()
          .filter(keep)
          .map((b) => [b.seq, b]),
      ).values(),
    ].sort((a, b) => a.seq - b.seq);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const always =
  (status: number): Script =>
  () =>
    status;
