// stream: how soon an event reaches 100 open event streams. A second service
// process holds 100 `GET /api/events/stream` connections (one workspace, its
// key; STREAM_MAX_PER_CALLER raised for it) while replies are written through
// the main process at a steady pace; each event's latency, per stream, is from
// its `created_at` (the command's time, the same machine's clock) to the
// stream's client having its `data:` line, so it includes the commit, the
// cross-process NOTIFY and the stream's read of the feed. The streams replay
// the workspace's feed first (opened without Last-Event-ID); the writes start
// once all of them have read a marker written after it. The baseline is what
// a poller pays per look: the answer time of `GET /api/events?after_seq=` to the
// same process in the same conditions (the streams open). Bounded in count and
// time on both sides.
import { row } from '../lib/report.js';
import { auth, type Scenario } from './shared.js';

const STREAMS = 100;
const WRITES_PER_S = 20;
const DRAIN_MS = 30_000;
/** How long the streams may take to replay the workspace's feed before the measured writes. */
const CATCH_UP_MS = 120_000;
const MARKER = 'stream-bench-marker';

const p = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
};

export const stream: Scenario = {
  name: 'stream',
  aliases: ['sse'],
  needsService: true,
  async run(ctx) {
    const main = await ctx.service();
    const tenant = await ctx.tenant('main');
    const conv = await ctx.sampleConversation();
    const streams = await ctx.serviceWith('stream', { STREAM_MAX_PER_CALLER: String(STREAMS * 2), WORKERS: 'off' });
    const writes = Math.max(20, Math.round(ctx.sizes.loadS * WRITES_PER_S));
    const latencies: number[] = [];
    const seen = new Array<number>(STREAMS).fill(0);
    /** Streams that have read the marker written after the backlog, so are at the log's end. */
    let caughtUp = 0;
    const abort = new AbortController();
    const readers: Promise<void>[] = [];
    try {
      // Open them all, then write: only the writes' events count.
      for (let i = 0; i < STREAMS; i++) {
        const res = await fetch(`${streams.url}/api/events/stream?types=conversation_part.created`, {
          headers: auth(tenant),
          signal: abort.signal,
        });
        if (res.status !== 200 || !res.body) throw new Error(`stream ${i} answered ${res.status}`);
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buffered = '';
        let counting = false;
        readers.push(
          (async () => {
            for (;;) {
              const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
              if (done) return;
              const at = Date.now();
              buffered += decoder.decode(value, { stream: true });
              let cut: number;
              while ((cut = buffered.indexOf('\n\n')) >= 0) {
                const block = buffered.slice(0, cut);
                buffered = buffered.slice(cut + 2);
                const data = block.split('\n').find((l) => l.startsWith('data: '));
                if (!data) continue;
                const e = JSON.parse(data.slice(6)) as { created_at: string; payload: { body?: string } };
                // The backlog (the workspace's parts so far: every earlier row's, every earlier run's) is read
                // first, then the marker; the run's writes are marked too.
                if (e.payload.body === MARKER) caughtUp++;
                if (e.payload.body?.startsWith('stream-bench ')) counting = true;
                if (!counting) continue;
                latencies.push(at - Date.parse(e.created_at));
                seen[i]!++;
              }
            }
          })(),
        );
      }
      // A stream opened without Last-Event-ID replays the feed from its start: 100 of them replaying a workspace
      // that earlier rows filled (the bulk row alone adds a thousand parts a run) measured the replay, not the
      // live path (p99 52.6 s in a full run, 43 ms alone). The writes start once every stream has the marker.
      const note = async (body: string) => {
        const r = await fetch(`${main.url}/api/conversations/${conv.id}/reply`, {
          method: 'POST',
          headers: { ...auth(tenant), 'content-type': 'application/json' },
          body: JSON.stringify({ message_type: 'note', body }),
        });
        await r.arrayBuffer();
        if (r.status !== 201) throw new Error(`a write answered ${r.status}`);
      };
      await note(MARKER);
      const replayed = Date.now() + CATCH_UP_MS;
      while (caughtUp < STREAMS && Date.now() < replayed) await new Promise((r) => setTimeout(r, 50));
      if (caughtUp < STREAMS) throw new Error(`${STREAMS - caughtUp} streams had not replayed the backlog after ${CATCH_UP_MS} ms`);
      const gap = 1000 / WRITES_PER_S;
      const started = Date.now();
      for (let k = 0; k < writes; k++) {
        const due = started + k * gap;
        if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
        await note(`stream-bench ${k}`);
      }
      const until = Date.now() + DRAIN_MS;
      while (seen.some((n) => n < writes) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const missing = seen.reduce((a, n) => a + (writes - n), 0);

      // The poller's look, with the streams still open.
      const polls: number[] = [];
      for (let k = 0; k < writes; k++) {
        const t0 = performance.now();
        const r = await fetch(`${streams.url}/api/events?types=conversation_part.created&per_page=10`, { headers: auth(tenant) });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`a poll answered ${r.status}`);
        polls.push(performance.now() - t0);
      }
      const ours = p(latencies, 0.99);
      const base = p(polls, 0.99);
      return [
        row({
          scenario: 'stream',
          figure: `p99 from an event's created_at to ${STREAMS} open streams having it (a second process; ${writes} notes at ${WRITES_PER_S}/s)`,
          unit: 'ms',
          ours,
          baselineLabel: 'p99 answer time of GET /api/events (a poll), same process, streams open',
          baseline: base,
          target: { kind: 'ratio<=', value: 5 },
          note: `p50 ${p(latencies, 0.5).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} deliveries${missing ? `; ${missing} deliveries missing after ${DRAIN_MS} ms` : ''}; poll p50 ${p(polls, 0.5).toFixed(1)} ms`,
          details: {
            streams: STREAMS,
            writes,
            deliveries: latencies.length,
            missing,
            latency_ms: { p50: p(latencies, 0.5), p99: ours },
            poll_ms: { p50: p(polls, 0.5), p99: base },
          },
        }),
      ];
    } finally {
      abort.abort();
      await Promise.allSettled(readers);
      await ctx.stopServiceWith('stream');
    }
  },
};
