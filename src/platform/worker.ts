/** A background loop (dispatcher, sweeps, timers); started and stopped by the service. */
export interface Worker {
  name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A worker's pass, run one at a time per process: a wake-up (a notification, a timer, a test's call)
 * during a pass makes it run once more when it ends, rather than a second pass alongside it.
 * `idle()` waits for a pass in flight (a worker's stop).
 */
export function coalescing(pass: () => Promise<number>, stopped: () => boolean): { tick(): Promise<number>; idle(): Promise<void> } {
  let running: Promise<number> | null = null;
  let again = false;
  return {
    tick() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          total += await pass();
        } while (again && !stopped());
        return total;
      })().finally(() => (running = null));
      return running;
    },
    async idle() {
      await running?.catch(() => undefined);
    },
  };
}

/**
 * A worker woken by a NOTIFY channel (every process's commits), with a poll tick as the safety net (a lost
 * notification, a lease run out) and a first pass at start; its passes coalesce (above). `pass` is told when the
 * worker is stopping, to hand back what it claimed instead of working on. The outbound and jobs workers are this.
 */
export function notifiedWorker(
  deps: { notifier: { listen(channel: string, handler: () => void): Promise<() => void> }; log: { warn(o: object, msg: string): void } },
  o: { name: string; channel: string; pollMs: number; pass(stopping: () => boolean): Promise<number> },
): Worker & { tick(): Promise<number> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => void) | null = null;
  const stopping = () => stopped;
  const { tick, idle } = coalescing(() => o.pass(stopping), stopping);
  const background = () => void tick().catch((e) => deps.log.warn({ err: e }, `${o.name} pass failed`));
  return {
    name: o.name,
    tick,
    async start() {
      stopped = false;
      unlisten = await deps.notifier.listen(o.channel, background).catch((e) => {
        deps.log.warn({ err: e }, `${o.name} worker could not LISTEN; polling only`);
        return null;
      });
      timer = setInterval(background, o.pollMs);
      timer.unref();
      background();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      unlisten?.();
      await idle();
    },
  };
}
