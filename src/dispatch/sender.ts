// One HTTP POST of a delivery: outside any transaction, bounded by a timeout,
// never following redirects, and connecting only to addresses the URL policy
// has just approved (the check at connect time, not only at save time).
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { hmacHex } from '../platform/crypto/hmac.js';
import { UrlRefused, type UrlPolicy } from './url-policy.js';

export interface SendResult {
  /** HTTP status, null when no answer came (refused, timeout, connection error) */
  status: number | null;
  /** null on 2xx; otherwise why the attempt failed, in words */
  error: string | null;
  durationMs: number;
  /** the failure is final (an SMTP relay's 5xx): no retry, the delivery is dead at once */
  permanent?: boolean;
}

export const SIGNATURE_HEADER = 'x-service-signature';

/** A lookup that answers only with the addresses already checked. */
function pinnedLookup(addresses: { address: string; family: number }[]): net.LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length ? wanted : addresses;
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string };
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ECONNRESET') return 'connection reset by the receiver';
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return 'host not found';
  return err.code ? `${err.message ?? 'connection error'} (${err.code})` : (err.message ?? 'connection error');
}

export class Sender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
  };

  constructor(
    private readonly policy: UrlPolicy,
    private readonly timeoutMs: number,
  ) {}

  async post(url: string, body: string, secret: string): Promise<SendResult> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): SendResult => ({ status, error, durationMs: Math.round(performance.now() - started) });
    let u: URL;
    let addresses: { address: string; family: number }[];
    try {
      u = this.policy.parse(url);
      addresses = await this.policy.resolve(u);
    } catch (e) {
      if (e instanceof UrlRefused) return done(null, `refused before sending: ${e.message}`);
      throw e;
    }
    // The signature covers exactly these bytes, and these bytes are what is written.
    const bytes = Buffer.from(body, 'utf8');
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (status: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(status, error));
      };
      const req = (u.protocol === 'https:' ? https : http).request(u, {
        method: 'POST',
        agent: this.agents[u.protocol as 'http:' | 'https:'],
        lookup: pinnedLookup(addresses),
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          'user-agent': 'conversation-service-webhooks/1',
          [SIGNATURE_HEADER]: hmacHex(secret, bytes),
        },
      });
      const timer = setTimeout(() => {
        finish(null, `timeout: no complete answer within ${this.timeoutMs} ms`);
        req.destroy();
      }, this.timeoutMs);
      req.on('error', (e) => finish(null, describe(e)));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        // What the receiver answered is counted, never kept: where an operator allowlists internal hosts, a stored
        // excerpt made a webhook a partial read of internal error pages for anyone with settings:read.
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
        });
        res.on('error', (e) => finish(status, describe(e)));
        res.on('end', () => {
          if (status >= 200 && status < 300) return finish(status, null);
          finish(status, `receiver answered ${status} (${size} bytes, not kept)`);
        });
      });
      req.end(bytes);
    });
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
