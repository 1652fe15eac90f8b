// The HTTP load generator: autocannon in a process of its own (one for the
// whole run, started once; each call is one warm-up and one measured run, so
// the load never shares an event loop with what it measures). Requests that
// must differ (a fresh Idempotency-Key, a new thread id, a signature over the
// exact bytes) are built per request by a named generator, since functions
// cannot cross the IPC channel. Latency is taken from autocannon's per-response
// timings (hrtime, sub-millisecond), not from its millisecond histogram.
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { daemon } from '../lib/child.js';
import { summarize, type LatencySummary } from '../lib/stats.js';

export type Generator =
  | { kind: 'static'; method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }
  | { kind: 'create-conversation'; path: string; tenants: { headers: Record<string, string>; channelId: string }[]; contacts: number }
  | { kind: 'inbound'; path: string; secret: string; contacts: number }
  /** GET {prefix}{id}, the id picked at random from `ids` for every request */
  | { kind: 'get-random'; prefix: string; ids: string[]; headers?: Record<string, string> }
  /** POST {prefix}{id}/reply, the id picked at random from `conversations` for every request */
  | { kind: 'reply'; prefix: string; conversations: string[]; headers: Record<string, string> };

export interface LoadInput {
  url: string;
  connections: number;
  durationS: number;
  warmupS: number;
  /** fixed request rate over all connections (latency scenarios); omitted = as fast as answers come */
  overallRate?: number;
  generator: Generator;
}

export interface LoadResult {
  /** 2xx answers per second of the measured run */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationS: number;
  latencyMs: LatencySummary;
  statuses: Record<string, number>;
  /** one non-2xx answer body, to say what went wrong */
  sampleError?: string;
  /** 2xx answers during the warm-up (for CPU-per-request over the whole run) */
  warmupOk: number;
}

/**
 * Latency of several GETs compared with each other, on one keep-alive
 * connection: the paths take turns, request by request, for the whole run, so
 * every path meets the same machine (a neighbour's burst of load lands on all
 * of them alike) instead of one path being timed after the other.
 */
export interface InterleavedInput {
  url: string;
  paths: string[];
  /** per path, a JSON body to POST instead of a GET (null or absent: GET) */
  bodies?: (string | null)[];
  headers?: Record<string, string>;
  durationS: number;
  warmupS: number;
}

export interface InterleavedResult {
  /** per path, in the order given: latency of its 2xx answers */
  latencyMs: LatencySummary[];
  ok: number[];
  non2xx: number[];
  durationS: number;
  sampleError?: string;
}

export type LoaderCall = { cmd: 'load'; input: LoadInput } | { cmd: 'interleaved'; input: InterleavedInput };

const TEXT = 'Hello, my order #4411 has not arrived yet and the tracking page has said "label created" for six days. Can you check?';

const REPLY = 'Thanks for your patience! The warehouse confirmed the parcel left this morning; you will get the tracking link by e-mail.';

/** The first non-2xx answer of the measured run, to say what went wrong. */
let sampleError: string | undefined;
let recording = false;
const onResponse = (status: number, body: string) => {
  if (recording && (status < 200 || status >= 300) && sampleError === undefined) sampleError = `${status} ${String(body).slice(0, 300)}`;
};

function requestsFor(g: Generator): autocannon.Request[] {
  return baseRequests(g).map((r) => ({ ...r, onResponse }));
}

function baseRequests(g: Generator): autocannon.Request[] {
  const run = randomBytes(4).toString('hex');
  let n = 0;
  switch (g.kind) {
    case 'static':
      return [{ method: g.method, path: g.path, headers: g.headers, body: g.body }];
    case 'create-conversation':
      return [
        {
          method: 'POST',
          path: g.path,
          setupRequest: (req) => {
            const i = n++;
            const c = i % g.contacts;
            const t = g.tenants[i % g.tenants.length]!;
            req.headers = { ...t.headers, 'content-type': 'application/json', 'idempotency-key': `bench-${run}-${i}` };
            req.body = JSON.stringify({
              channel_id: t.channelId,
              body: TEXT,
              subject: `Order ${i}`,
              contact: { external_id: `bench-contact-${c}`, name: `Customer ${c}`, email: `customer${c}@bench.example.com` },
            });
            return req;
          },
        },
      ];
    case 'get-random':
      return [
        {
          method: 'GET',
          path: `${g.prefix}${g.ids[0]}`,
          headers: g.headers,
          setupRequest: (req) => {
            req.path = `${g.prefix}${g.ids[Math.floor(Math.random() * g.ids.length)]!}`;
            return req;
          },
        },
      ];
    case 'reply':
      return [
        {
          method: 'POST',
          path: `${g.prefix}${g.conversations[0]}/reply`,
          setupRequest: (req) => {
            const i = n++;
            const id = g.conversations[Math.floor(Math.random() * g.conversations.length)]!;
            req.path = `${g.prefix}${id}/reply`;
            req.headers = { ...g.headers, 'content-type': 'application/json', 'idempotency-key': `bench-reply-${run}-${i}` };
            req.body = JSON.stringify({ body: REPLY, message_type: 'comment' });
            return req;
          },
        },
      ];
    case 'inbound':
      return [
        {
          method: 'POST',
          path: g.path,
          setupRequest: (req) => {
            const i = n++;
            const c = i % g.contacts;
            const raw = JSON.stringify({
              external_id: `thread-${run}-${i}`,
              message_id: `msg-${run}-${i}`,
              contact: { external_id: `wa:+1555${String(c).padStart(6, '0')}`, name: `Customer ${c}`, phone: `+1555${String(c).padStart(6, '0')}` },
              content: TEXT,
            });
            req.headers = {
              'content-type': 'application/json',
              'x-service-signature': createHmac('sha256', g.secret).update(raw).digest('hex'),
              'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
            };
            req.body = raw;
            return req;
          },
        },
      ];
  }
}

function once(input: LoadInput, requests: autocannon.Request[], seconds: number, record: boolean): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    recording = record;
    const inst = autocannon(
      {
        url: input.url,
        connections: input.connections,
        duration: seconds,
        pipelining: 1,
        timeout: 30,
        requests,
        ...(input.overallRate ? { overallRate: input.overallRate } : {}),
      },
      (err, r) => {
        if (err) return reject(err);
        const ok = r['2xx'];
        resolve({
          rps: ok / r.duration,
          ok,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          durationS: r.duration,
          latencyMs: summarize(latencies),
          statuses,
          sampleError,
          warmupOk: 0,
        });
      },
    );
    if (!record) return;
    inst.on('response', (_client, status, _bytes, responseTime) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
  });
}

async function run(input: LoadInput): Promise<LoadResult> {
  sampleError = undefined;
  const requests = requestsFor(input.generator);
  const warm = input.warmupS > 0 ? (await once(input, requests, input.warmupS, false)).ok : 0;
  return { ...(await once(input, requests, input.durationS, true)), warmupOk: warm };
}

async function interleaved(input: InterleavedInput): Promise<InterleavedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(input.url);
  const get = (path: string, body?: string | null) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers = body ? { ...input.headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : input.headers;
      const req = http.request({ host: base.hostname, port: base.port, path, method: body ? 'POST' : 'GET', headers, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body ?? undefined);
    });
  const n = input.paths.length;
  const samples: number[][] = input.paths.map(() => []);
  const ok = new Array<number>(n).fill(0);
  const non2xx = new Array<number>(n).fill(0);
  let error: string | undefined;
  const loop = async (seconds: number, record: boolean) => {
    const until = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const k = i % n;
      const t0 = performance.now();
      const r = await get(input.paths[k]!, input.bodies?.[k]);
      const ms = performance.now() - t0;
      if (!record) continue;
      if (r.status >= 200 && r.status < 300) {
        ok[k]!++;
        samples[k]!.push(ms);
      } else {
        non2xx[k]!++;
        error ??= `${r.status} ${r.body.slice(0, 300)}`;
      }
    }
  };
  try {
    await loop(input.warmupS, false);
    const started = performance.now();
    await loop(input.durationS, true);
    return {
      latencyMs: samples.map((x) => summarize(x)),
      ok,
      non2xx,
      durationS: (performance.now() - started) / 1000,
      ...(error ? { sampleError: error } : {}),
    };
  } finally {
    agent.destroy();
  }
}

daemon<Record<string, never>, Record<string, never>>(async () => ({
  ready: {},
  handle: (call: LoaderCall) => (call.cmd === 'load' ? run(call.input) : interleaved(call.input)),
  stop: async () => undefined,
}));
