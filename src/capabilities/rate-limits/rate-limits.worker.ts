import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { Worker } from '../../platform/worker.js';
import type { Knex } from 'knex';
import { deleteEndedWindows } from './windows.repo.js';

const EVERY_MS = 60_000;
/** A window is kept this long after it ends: a process whose clock runs behind may still be counting in it. */
const KEEP_ENDED_MS = 60_000;

/** Deletes the rows of rate-limit windows that ended (a row per budget and window would otherwise pile up). */
export function windowSweeper(db: Knex, clock: Clock, log: Logger): Worker & { sweep(): Promise<number> } {
  let timer: NodeJS.Timeout | null = null;
  const sweep = () => deleteEndedWindows(db, new Date(clock.now().getTime() - KEEP_ENDED_MS));
  return {
    name: 'rate-limit-sweeper',
    sweep,
    async start() {
      timer = setInterval(() => void sweep().catch((e: unknown) => log.warn({ err: e }, 'rate-limit sweep failed')), EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
    },
  };
}
