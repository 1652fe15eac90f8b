// The webhook receiver of the scale-out run: a plain node http server on
// 127.0.0.1 recording every delivery (seq, tenant, bytes, signature check) and
// answering 200, or now and then 500 (seeded) so retries are exercised.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  at: number;
  seq: number | null;
  tenant: string | null;
  status: number;
  signatureOk: boolean;
  raw: string;
}

export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  private server: http.Server | null = null;
  secret: string | null = null;
  port = 0;

  constructor(
    private readonly rnd: () => number,
    private readonly failRate: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  private verified(raw: Buffer, header: unknown): boolean {
    if (!this.secret || typeof header !== 'string') return false;
    const expected = Buffer.from(createHmac('sha256', this.secret).update(raw).digest('hex'));
    const given = Buffer.from(header);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let seq: number | null = null;
        let tenant: string | null = null;
        try {
          const body = JSON.parse(raw.toString('utf8')) as { seq?: unknown; tenant_id?: unknown };
          seq = typeof body.seq === 'number' ? body.seq : null;
          tenant = typeof body.tenant_id === 'string' ? body.tenant_id : null;
        } catch {
          /* recorded as is */
        }
        const status = this.rnd() < this.failRate ? 500 : 200;
        this.deliveries.push({
          at: Date.now(),
          seq,
          tenant,
          status,
          signatureOk: this.verified(raw, req.headers['x-service-signature']),
          raw: raw.toString('utf8'),
        });
        res.writeHead(status).end();
      });
    });
    this.server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', resolve);
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Distinct seqs answered 200 for `tenant`. */
  acceptedSeqs(tenant: string): Set<number> {
    const s = new Set<number>();
    for (const d of this.deliveries) if (d.status === 200 && d.tenant === tenant && d.seq !== null) s.add(d.seq);
    return s;
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = null;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }
}
