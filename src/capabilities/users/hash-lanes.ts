// The password-hash scheduler: at most `concurrency` derivations at once in the
// process (each holds 32 MiB), at most one per lane (a lane is an account: the
// normalised e-mail), and the free slots go round-robin across the lanes that
// have work waiting. So a burst against one account queues behind itself, one at
// a time, while every other account's sign-in gets the next free slot instead of
// waiting behind the burst (FIFO made one account's 200 attempts everyone's
// problem). A lane's own line is bounded: beyond it the attempt is refused.
import { AppError } from '../../platform/errors.js';

interface Lane {
  busy: boolean;
  waiting: (() => void)[];
}

export class LaneFull extends AppError {
  constructor() {
    super(429, 'too_many_attempts', 'Too many sign-in attempts. Wait before trying again.', undefined, [], { 'Retry-After': '1' });
  }
}

export class LaneScheduler {
  private running = 0;
  private readonly lanes = new Map<string, Lane>();
  /** lanes with work waiting, in the order they get the next free slot */
  private ring: string[] = [];
  private anonymous = 0;

  constructor(
    readonly concurrency: number,
    /** attempts allowed to wait in one lane (beyond the one running) */
    readonly maxWaitingPerLane: number,
  ) {}

  /** A lane of its own, for work that belongs to no account (round-robin then behaves as FIFO). */
  private ownLane(): string {
    this.anonymous = (this.anonymous + 1) % Number.MAX_SAFE_INTEGER;
    return `\u0000anonymous:${this.anonymous}`;
  }

  async run<T>(laneKey: string | undefined, job: () => Promise<T>): Promise<T> {
    const key = laneKey ?? this.ownLane();
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { busy: false, waiting: [] }));
    if (lane.waiting.length >= this.maxWaitingPerLane) throw new LaneFull();
    await new Promise<void>((go) => {
      lane.waiting.push(go);
      if (lane.waiting.length === 1) this.ring.push(key);
      this.pump();
    });
    try {
      return await job();
    } finally {
      this.running--;
      lane.busy = false;
      if (lane.waiting.length === 0) this.lanes.delete(key);
      this.pump();
    }
  }

  private pump(): void {
    while (this.running < this.concurrency) {
      const i = this.ring.findIndex((k) => !this.lanes.get(k)!.busy);
      if (i < 0) return;
      const key = this.ring[i]!;
      this.ring.splice(i, 1);
      const lane = this.lanes.get(key)!;
      const go = lane.waiting.shift()!;
      // more waiting in this lane: it goes to the back of the ring (round-robin)
      if (lane.waiting.length > 0) this.ring.push(key);
      lane.busy = true;
      this.running++;
      go();
    }
  }

  /** For tests and metrics: derivations running, lanes known. */
  stats(): { running: number; lanes: number; waiting: number } {
    let waiting = 0;
    for (const l of this.lanes.values()) waiting += l.waiting.length;
    return { running: this.running, lanes: this.lanes.size, waiting };
  }
}
