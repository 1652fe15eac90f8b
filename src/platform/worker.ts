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
