// A client of the live stream (GET /api/events/stream) through the load
// balancer for the whole run: when the API process serving it is killed, the
// stream ends, and it reconnects with Last-Event-ID, as EventSource does. At
// the end it reads on to the workspace's head, and the run checks that it got
// every seq of the log once, in order (issue 49: nothing missed or repeated
// across kills).
import { sleep } from './procs.js';

export class StreamClient {
  readonly seqs: number[] = [];
  connections = 0;
  refused = 0;
  private last: number | null = null;
  private target: number | null = null;
  private current: AbortController | null = null;
  private reached: (() => void) | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  /** Reads on until the stream has sent `head`, or `deadlineMs` passed; then stops. Whether it got there. */
  async finish(head: number, deadlineMs: number): Promise<boolean> {
    this.target = head;
    const got =
      (this.last ?? 0) >= head || (await Promise.race([new Promise<true>((r) => (this.reached = () => r(true))), sleep(deadlineMs).then(() => false)]));
    this.target = -1;
    this.current?.abort();
    await this.running;
    return got;
  }

  private stopped(): boolean {
    return this.target === -1;
  }

  private async loop(): Promise<void> {
    while (!this.stopped()) {
      try {
        await this.once();
      } catch {
        // the process serving it was killed, or the balancer had none ready: reconnect
      }
      if (!this.stopped()) await sleep(100);
    }
  }

  private async once(): Promise<void> {
    this.connections++;
    const ac = new AbortController();
    this.current = ac;
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    if (this.last !== null) headers['last-event-id'] = String(this.last);
    const res = await fetch(`${this.url}/api/events/stream`, { headers, signal: ac.signal });
    if (res.status !== 200 || !res.body) {
      this.refused++;
      await res.text().catch(() => undefined);
      return;
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
        const id = /^id: (\d+)$/m.exec(buffer.slice(0, cut))?.[1];
        buffer = buffer.slice(cut + 2);
        if (id === undefined) continue;
        this.last = Number(id);
        this.seqs.push(this.last);
        if (this.target !== null && this.target >= 0 && this.last >= this.target) this.reached?.();
      }
    }
  }
}

/** What the stream got against the log's seqs 1..head: each missing or repeated seq, and whether they came in order. */
export function streamViolations(seqs: readonly number[], head: number, reachedHead: boolean): string[] {
  const out: string[] = [];
  if (!reachedHead) out.push(`the event stream did not reach the head (seq ${head}) after the load; it got up to ${seqs.at(-1) ?? 0}`);
  const seen = new Map<number, number>();
  for (const s of seqs) seen.set(s, (seen.get(s) ?? 0) + 1);
  const repeated = [...seen].filter(([, n]) => n > 1).map(([s]) => s);
  if (repeated.length) out.push(`the event stream sent ${repeated.length} seq(s) more than once: ${repeated.slice(0, 10).join(', ')}`);
  const missing: number[] = [];
  for (let s = 1; s <= head; s++) if (!seen.has(s)) missing.push(s);
  if (missing.length) out.push(`the event stream missed ${missing.length} seq(s): ${missing.slice(0, 10).join(', ')}`);
  if (seqs.some((s, i) => i > 0 && s <= seqs[i - 1]!)) out.push('the event stream sent seqs out of order');
  return out;
}
