// The webhook receiver of the latency scenario: a plain node:http server on
// 127.0.0.1 in its own process. It records, per delivery, the wall-clock time
// the whole body had arrived (just before it answers 200), the envelope's
// tenant and seq, and whether the signature verifies over the received bytes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { daemon } from '../lib/child.js';
import { wallMs } from '../lib/stats.js';

export interface Arrival {
  tenant: string;
  seq: number;
  at: number;
  signed: boolean;
}

export type ReceiverCall = { cmd: 'secret'; secret: string } | { cmd: 'take' };

daemon<Record<string, never>, { url: string }>(async () => {
  let secret: string | null = null;
  let arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = wallMs();
      const raw = Buffer.concat(chunks);
      let signed = false;
      if (secret) {
        const want = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'));
        const got = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
        signed = want.length === got.length && timingSafeEqual(want, got);
      }
      try {
        const env = JSON.parse(raw.toString('utf8')) as { tenant_id: string; seq: number };
        arrivals.push({ tenant: env.tenant_id, seq: env.seq, at, signed });
      } catch {
        // not an envelope: not ours to time
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ready: { url: `http://127.0.0.1:${port}/hook` },
    async handle(m: ReceiverCall) {
      if (m.cmd === 'secret') {
        secret = m.secret;
        return null;
      }
      const out = arrivals;
      arrivals = [];
      return out;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
});
