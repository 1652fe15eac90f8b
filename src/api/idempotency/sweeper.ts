import type { Worker } from '../../platform/worker.js';
import type { Logger } from '../../platform/logger.js';
import type { Idempotency } from './idempotency.js';

const EVERY_MS = 10 * 60_000;

/** Reaps idempotency rows 24 h after completion (spec 3.2). */
export function idempotencySweeper(idempotency: Idempotency, log: Logger): Worker {
  let timer: NodeJS.Timeout | null = null;
  const tick = () =>
    idempotency.sweep().then(
      (n) => n > 0 && log.info({ reaped: n }, 'idempotency keys reaped'),
      (e) => log.warn({ err: e }, 'idempotency sweep failed'),
    );
  return {
    name: 'idempotency-sweeper',
    async start() {
      timer = setInterval(() => void tick(), EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
    },
  };
}
