// The mixed load of the scale-out run, through the load balancer. Every write
// carries an Idempotency-Key (inbound posts are deduplicated by their thread and
// message ids instead); a request answered 5xx, cut off, or told its key is
// still in flight is retried with the same key and the same bytes until it gets
// another answer (bounded by attempts and time). Every attempt is recorded, so
// the verification can say which failures were in flight at a fault.
import { createHmac } from 'node:crypto';

export interface Attempt {
  start: number;
  end: number;
  /** HTTP status, or null for a connection error / timeout */
  status: number | null;
  error?: string;
  code?: string;
}

export type Kind = 'create' | 'reply' | 'inbound' | 'list' | 'get';

export interface RequestRecord {
  client: number;
  kind: Kind;
  method: string;
  path: string;
  key?: string;
  /** unique text the write carries, to find it in the log */
  marker?: string;
  attempts: Attempt[];
  /** the final non-retryable answer, or null when the retry budget ran out */
  final: number | null;
  replayed: boolean;
  body?: any;
  /** what was sent (headers beside the signature, bytes): the failover run sends a write again to see it replayed */
  sent?: { headers: Record<string, string>; raw?: string };
}

export interface RetryPolicy {
  maxAttempts: number;
  maxMs: number;
  attemptTimeoutMs: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The error code of an error envelope, when the text is one. */
function errorCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { errors?: { code?: string }[] }).errors?.[0]?.code;
  } catch {
    return undefined;
  }
}

export class LoadClient {
  constructor(
    readonly base: string,
    private readonly policy: RetryPolicy,
  ) {}

  /**
   * Sends one logical request, retrying transport failures, 5xx and in-flight key conflicts.
   * `onHeld` is called once when the key is reported in flight (a process died holding it: the
   * key's lease must run out first, up to its 15 s), so the caller can carry on meanwhile.
   */
  async send(
    rec: RequestRecord,
    headers: Record<string, string>,
    raw?: string,
    sign?: (raw: string) => Record<string, string>,
    onHeld?: () => void,
    /** the bytes a retry sends, when it sends others than the first (an inbound post with a fresh `at`) */
    retryBytes?: (attempt: number) => string,
  ): Promise<RequestRecord> {
    const started = Date.now();
    rec.sent = { headers, raw };
    for (let i = 0; i < this.policy.maxAttempts; i++) {
      const a: Attempt = { start: Date.now(), end: 0, status: null };
      rec.attempts.push(a);
      const bytes = retryBytes && i > 0 ? retryBytes(i) : raw;
      let retryAfterMs = 0;
      try {
        const res = await fetch(this.base + rec.path, {
          method: rec.method,
          headers: { ...headers, ...(bytes !== undefined ? { 'content-type': 'application/json' } : {}), ...(sign && bytes !== undefined ? sign(bytes) : {}) },
          body: bytes,
          signal: AbortSignal.timeout(this.policy.attemptTimeoutMs),
        });
        const text = await res.text();
        a.end = Date.now();
        a.status = res.status;
        if (res.status >= 400) a.code = errorCode(text);
        // A 409 that says when to try again (the key still in flight; the workspace changed under every attempt)
        // is retried with the same key, as the contract asks of a client: neither is stored under the key.
        const inFlight = res.status === 409 && a.code === 'idempotency_key_in_flight';
        const later = res.status === 409 && a.code === 'concurrent_modification';
        if (res.status < 500 && !inFlight && !later) {
          rec.final = res.status;
          rec.replayed = res.headers.get('idempotent-replayed') === 'true';
          try {
            rec.body = text ? JSON.parse(text) : undefined;
          } catch {
            rec.body = text;
          }
          return rec;
        }
        if (later) retryAfterMs = Number(res.headers.get('retry-after') ?? '1') * 1000;
        if (inFlight) {
          retryAfterMs = Number(res.headers.get('retry-after') ?? '1') * 1000;
          onHeld?.();
          onHeld = undefined;
        }
      } catch (e) {
        a.end = Date.now();
        a.error = String((e as Error).cause ?? e).slice(0, 200);
      }
      if (Date.now() - started > this.policy.maxMs) break;
      // back-off with jitter: 100 ms doubling to 2 s, or what Retry-After says
      await sleep(retryAfterMs || Math.min(2000, 100 * 2 ** Math.min(i, 5)) * (0.5 + Math.random() / 2));
    }
    rec.final = null;
    return rec;
  }
}

export interface Setup {
  tenant: string;
  apiKey: string;
  channelId: string;
  channelSecret: string;
}

export interface LoadOptions {
  clients: number;
  /** no request starts after this instant (retries of a started one continue) */
  until: () => number;
  rnd: (client: number) => () => number;
  runId: string;
}

export const sign = (secret: string, raw: string) => createHmac('sha256', secret).update(raw).digest('hex');

/** Runs `opts.clients` closed-loop clients until `opts.until()`; returns every request made. */
export async function runLoad(client: LoadClient, setup: Setup, opts: LoadOptions, records: RequestRecord[] = []): Promise<RequestRecord[]> {
  const auth = { authorization: `Bearer ${setup.apiKey}` };

  const held: Promise<unknown>[] = [];
  /**
   * A write whose key is held by a process that died waits for the key's lease
   * (up to its 15 s); the client parks it (its retries go on) and carries on
   * with new requests, as a real client with more than one thing to do would.
   */
  const sendOrPark = (rec: RequestRecord, headers: Record<string, string>, raw?: string, sign?: (raw: string) => Record<string, string>): Promise<void> =>
    new Promise<void>((resolve) => {
      const p = client.send(rec, headers, raw, sign, () => {
        held.push(p);
        resolve();
      });
      void p.then(() => resolve());
    });

  const one = async (c: number) => {
    const rnd = opts.rnd(c);
    const mine: string[] = []; // conversations this client created (acknowledged)
    let n = 0;
    let thread = 0;
    let message = 0;
    while (Date.now() < opts.until()) {
      n++;
      const r = rnd();
      const marker = `${opts.runId}:c${c}:n${n}`;
      const rec: RequestRecord = { client: c, kind: 'list', method: 'GET', path: '', attempts: [], final: null, replayed: false };
      records.push(rec);
      if (r < 0.25 || (r < 0.6 && mine.length === 0)) {
        rec.kind = 'create';
        rec.method = 'POST';
        rec.path = '/api/conversations';
        rec.key = `create-${marker}`;
        rec.marker = `open ${marker}`;
        const body = JSON.stringify({
          channel_id: setup.channelId,
          body: rec.marker,
          subject: `Load ${c}/${n}`,
          contact: { external_id: `load-${opts.runId}-${c % 7}`, name: `Customer ${c % 7}` },
        });
        await sendOrPark(rec, { ...auth, 'idempotency-key': rec.key }, body);
        // (a parked creation is not replied to; it is checked like any other write)
        if (rec.final === 201 && typeof rec.body?.id === 'string') mine.push(rec.body.id);
      } else if (r < 0.6) {
        rec.kind = 'reply';
        rec.method = 'POST';
        const conv = mine[Math.floor(rnd() * mine.length)]!;
        rec.path = `/api/conversations/${conv}/reply`;
        rec.key = `reply-${marker}`;
        rec.marker = `reply ${marker}`;
        const body = JSON.stringify({ body: rec.marker, message_type: rnd() < 0.8 ? 'comment' : 'note' });
        await sendOrPark(rec, { ...auth, 'idempotency-key': rec.key }, body);
      } else if (r < 0.75) {
        rec.kind = 'inbound';
        rec.method = 'POST';
        rec.path = `/api/channels/${setup.channelId}/inbound`;
        if (thread === 0 || rnd() < 0.3) thread++;
        message++;
        rec.marker = `inbound ${marker}`;
        const post = (attempt: number) =>
          JSON.stringify({
            external_id: `thr-${opts.runId}-${c}-${thread}`,
            message_id: `msg-${opts.runId}-${c}-${message}`,
            contact: { external_id: `wa:${opts.runId}:${c}`, name: `Bridge customer ${c}` },
            content: rec.marker,
            // A retry is sent anew (a fresh `at`), so it is checked by the thread's own rules, not only answered from
            // the signature's memory: a message filed already answers 202 either way (issue 45).
            ...(attempt > 0 ? { at: new Date().toISOString() } : {}),
          });
        await client.send(
          rec,
          {},
          post(0),
          (raw) => ({
            'x-service-signature': sign(setup.channelSecret, raw),
            'x-service-timestamp': String(Math.floor(Date.now() / 1000)),
          }),
          undefined,
          post,
        );
      } else if (r < 0.88 || mine.length === 0) {
        rec.kind = 'list';
        rec.path = `/api/conversations?per_page=${rnd() < 0.5 ? 20 : 50}`;
        await client.send(rec, auth);
      } else {
        rec.kind = 'get';
        rec.path = `/api/conversations/${mine[Math.floor(rnd() * mine.length)]}`;
        await client.send(rec, auth);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, (_, c) => one(c)));
  await Promise.all(held);
  return records;
}
