// The change feed as Server-Sent Events (GET /api/events/stream), read as a
// client reads it: over HTTP, parsed line by line, cut and resumed with
// Last-Event-ID. Each case waits for events to arrive on the stream (a cause),
// never for a time.
import http from 'node:http';
import { expect } from 'chai';
import { capabilityFixture } from '../support/capability-fixture.js';
import { mintKey, newWorkspace, startTestService } from '../support/service.js';

interface SseEvent {
  id: string;
  event: string;
  data: { seq: number; type: string; id: string; aggregate_id: string; payload: Record<string, unknown> };
}

/**
 * Reads a stream until `enough` says so (or the server ends it), then closes it: the events, the comment lines
 * and the `retry:` hint it got, and the answer's status and headers.
 */
async function readEvents(
  url: string,
  headers: Record<string, string>,
  enough: (events: SseEvent[], comments: string[]) => boolean,
): Promise<{ status: number; headers: Headers; events: SseEvent[]; comments: string[]; retry: string | null; ended: boolean }> {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let retry: string | null = null;
  let ended = false;
  if (res.status !== 200 || !res.body) return { status: res.status, headers: res.headers, events, comments, retry, ended: true };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    while (!enough(events, comments)) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0 && !enough(events, comments); cut = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else fields[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 1).trimStart();
        }
        if (fields.retry !== undefined) retry = fields.retry;
        if (fields.data !== undefined) events.push({ id: fields.id!, event: fields.event!, data: JSON.parse(fields.data) });
      }
    }
  } finally {
    ac.abort();
    await reader.cancel().catch(() => undefined);
  }
  return { status: res.status, headers: res.headers, events, comments, retry, ended };
}

describe('the event stream (SSE)', function () {
  this.timeout(180_000);
  const fx = capabilityFixture('event-stream', {
    scopes: ['events:read', 'contacts:write', 'contacts:read', 'settings:write', 'conversations:read'],
    env: { STREAM_MAX_PER_CALLER: '2', STREAM_HEARTBEAT_MS: '200' },
  });
  const url = (q = '') => `${fx.t.service.url}/api/events/stream${q}`;
  const auth = () => ({ authorization: `Bearer ${fx.key}` });

  it('streams 1,000 events live through a stream cut three times and resumed with Last-Event-ID: none missed, none repeated', async () => {
    const created: Promise<unknown>[] = [];
    let started = false;
    const got: SseEvent[] = [];
    let last: string | undefined;
    // Four connections in all: the first starts before the events exist (the live tail), each later one resumes.
    for (const upTo of [250, 500, 750, 1000]) {
      const part = await readEvents(url('?types=contact.created'), { ...auth(), ...(last ? { 'last-event-id': last } : {}) }, (events) => {
        if (!started) {
          started = true;
          // The writers start once the first stream is open: 1,000 contacts, eight at a time.
          created.push(
            (async () => {
              for (let i = 0; i < 1000; i += 8)
                await Promise.all(
                  Array.from({ length: Math.min(8, 1000 - i) }, (_, j) =>
                    fx.ok(fx.t.client.post('/api/contacts', { email: `s${i + j}@example.com` }, fx.as()), 201),
                  ),
                );
            })(),
          );
        }
        return got.length + events.length >= upTo;
      });
      expect(part.status).to.equal(200);
      expect(part.headers.get('content-type')).to.match(/^text\/event-stream/);
      expect(part.retry).to.equal('2000');
      got.push(...part.events.slice(0, upTo - got.length));
      last = got.at(-1)!.id;
    }
    await Promise.all(created);
    const seqs = got.map((e) => e.data.seq);
    expect(new Set(seqs).size, 'none repeated').to.equal(1000);
    expect(seqs).to.deep.equal([...seqs].sort((a, b) => a - b));
    expect(got.every((e) => e.event === 'contact.created' && e.id === String(e.data.seq))).to.equal(true);
    // None missed: the feed's own list of the same events.
    const feed: number[] = [];
    for (let after = 0; ;) {
      const page = await fx.ok(fx.t.client.get(`/api/events?types=contact.created&per_page=100&after_seq=${after}`, fx.as()));
      feed.push(...page.data.map((e: { seq: number }) => e.seq));
      if (!page.pages.next) break;
      after = page.data.at(-1).seq;
    }
    expect(seqs).to.deep.equal(feed);
    // The element is the feed's (its payload opened as the feed opens it).
    expect(got[0]!.data).to.include.keys('id', 'tenant_id', 'seq', 'type', 'aggregate_type', 'aggregate_id', 'payload', 'created_at');
    expect(got[0]!.data.payload.email).to.match(/@example\.com$/);
  });

  it("sends heartbeats while idle, and has the feed's holes: a member's private view is not streamed", async () => {
    const asOwner = { cookie: fx.owner.cookie, workspace: fx.owner.workspaceId };
    const open = { field: 'state', operator: '=', value: 'open' };
    await fx.ok(fx.t.client.post('/api/views', { name: 'Mine only', query: open }, asOwner), 201);
    const shared = await fx.ok(fx.t.client.post('/api/views', { name: 'For all', query: open, visibility: 'workspace' }, asOwner), 201);
    // Read until two heartbeats came after the events: by then every view event there is has been sent.
    const r = await readEvents(
      url('?types=view.created'),
      auth(),
      (events, comments) => events.length >= 1 && comments.filter((c) => c === 'heartbeat').length >= 2,
    );
    expect(r.events.map((e) => e.data.aggregate_id)).to.deep.equal([shared.id]);
  });

  it('refuses what it cannot stream with coded 4xx: no events:read, a bad Last-Event-ID, an unknown type; at most STREAM_MAX_PER_CALLER at once', async () => {
    const noScope = (await mintKey(fx.t, fx.owner, ['contacts:read'])).secret;
    const forbidden = await fx.t.client.get('/api/events/stream', { key: noScope });
    expect(forbidden.status).to.equal(403);
    const bad = await fx.t.client.get('/api/events/stream', { ...fx.as(), headers: { 'last-event-id': 'twelve' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0].code).to.equal('invalid_last_event_id');
    const unknown = await fx.t.client.get('/api/events/stream?types=contact.exploded', fx.as());
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0].code).to.equal('unknown_event_type');

    // Two held open (the fixture's cap), the third refused; once one closes, another opens.
    const held = await Promise.all([0, 1].map(() => heldOpen(url(), auth())));
    const third = await fx.t.client.get('/api/events/stream', fx.as());
    expect(third.status).to.equal(429);
    expect(third.body.errors[0].code).to.equal('too_many_streams');
    expect(third.headers.get('retry-after')).to.equal('5');
    await held[0]!.close();
    const again = await eventuallyOpens(url(), auth());
    await again.close();
    await held[1]!.close();
  });
});

describe('the event stream and a client that stops reading', function () {
  this.timeout(180_000);
  const fx = capabilityFixture('event-stream-stall', {
    scopes: ['events:read', 'conversations:read', 'conversations:write'],
    env: { STREAM_MAX_PER_CALLER: '1', STREAM_STALL_MS: '300' },
  });

  it('is cut once the client has taken nothing for STREAM_STALL_MS, holding no more than the socket did; it resumes from its last id', async () => {
    const conversation = await fx.ok(
      fx.t.client.post('/api/conversations', { channel_id: fx.channel.id, body: 'Start', contact: { email: 'slow@example.com' } }, fx.as()),
      201,
    );
    const url = new URL(`${fx.t.service.url}/api/events/stream?types=conversation_part.created`);
    // A client that reads the first bytes, then stops reading: the kernel's buffers on both sides fill up.
    const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(url, { headers: { authorization: `Bearer ${fx.key}` } }, resolve).on('error', reject),
    );
    expect(res.statusCode).to.equal(200);
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve) => res.once('data', (c: Buffer) => (chunks.push(c), resolve())));
    res.pause();
    // 8 MB of notes (a part's body is at most 65,535 characters), far more than loopback's buffers hold.
    const big = 'x'.repeat(65_000);
    for (let i = 0; i < 128; i++)
      await fx.ok(fx.t.client.post(`/api/conversations/${conversation.id}/reply`, { message_type: 'note', body: `${i} ${big}` }, fx.as()), 201);
    // The cut frees the caller's only place (STREAM_MAX_PER_CALLER 1): a new stream opens once it happened.
    const next = await eventuallyOpens(url.href, { authorization: `Bearer ${fx.key}` });
    await next.close();
    // The slow client reads on: what was buffered, then the end (the stream never ends by itself).
    res.on('data', (c: Buffer) => chunks.push(c));
    res.resume();
    await new Promise<void>((resolve) => res.once('close', resolve));
    const text = Buffer.concat(chunks).toString('utf8');
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(ids.length, 'it got some, not all').to.be.greaterThan(0).and.below(129);
    // A whole prefix: resuming after the last complete event gets the rest, nothing twice.
    const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
    const lastId = [...complete.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]!).at(-1)!;
    // (The place frees once the server has seen the last stream close: a 429 until then.)
    let rest: Awaited<ReturnType<typeof readEvents>>;
    for (let i = 0; ; i++) {
      rest = await readEvents(url.href, { authorization: `Bearer ${fx.key}`, 'last-event-id': lastId }, (events) =>
        events.some((e) => String(e.data.payload.body ?? '').startsWith('127 ')),
      );
      if (rest.status !== 429 || i >= 200) break;
    }
    expect(rest.status).to.equal(200);
    const seen = [...complete.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])).concat(rest.events.map((e) => e.data.seq));
    expect(new Set(seen).size).to.equal(seen.length);
    expect(seen.length).to.equal(129); // the conversation's first part and the 128 notes
  });
});

describe('the event stream when the service stops', function () {
  this.timeout(180_000);

  it('ends an open stream as a whole answer (the client reconnects, to another process), and the stop does not wait for it', async () => {
    const t = await startTestService('event-stream-stop');
    let closed: Promise<void> | undefined;
    try {
      const owner = await newWorkspace(t);
      const key = await mintKey(t, owner, ['events:read']);
      const res = await fetch(`${t.service.url}/api/events/stream`, { headers: { authorization: `Bearer ${key.secret}` } });
      expect(res.status).to.equal(200);
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value, { stream: true });
      closed = t.close();
      // Read to the end: a stream ended by the server is done; one cut with its connection fails the read ("terminated").
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      expect(text.startsWith('retry: 2000\n\n'), text).to.equal(true);
      expect(text.endsWith('\n\n'), 'it ends between events').to.equal(true);
      await closed;
    } finally {
      await (closed ?? t.close());
    }
  });
});

/** An open stream whose first bytes were read (so the server counts it), closed on demand. */
async function held(res: Response, ac: AbortController): Promise<{ close(): Promise<void> }> {
  const reader = res.body!.getReader();
  await reader.read();
  return {
    close: async () => {
      ac.abort();
      await reader.cancel().catch(() => undefined);
    },
  };
}

/** A stream opened and held, closed on demand. */
async function heldOpen(url: string, headers: Record<string, string>): Promise<{ close(): Promise<void> }> {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  expect(res.status).to.equal(200);
  return held(res, ac);
}

/** The server frees a closed stream's place when it sees the close: open again until it has (a 429 until then). */
async function eventuallyOpens(url: string, headers: Record<string, string>): Promise<{ close(): Promise<void> }> {
  for (let i = 0; i < 200; i++) {
    const ac = new AbortController();
    const res = await fetch(url, { headers, signal: ac.signal });
    if (res.status === 200) return held(res, ac);
    expect(res.status).to.equal(429);
    await res.text();
  }
  throw new Error('the closed stream never freed its place');
}
