// Task functions for test/platform/offload.int.test.ts, run in offload threads.
import { threadId } from 'node:worker_threads';
import { offloadTask } from '../../src/platform/offload.worker.js';

/** Waits `ms` without computing: a thread that is given no core looks the same to a CPU-time budget. */
export const idle = offloadTask(async (ms: number) => {
  await new Promise((r) => setTimeout(r, ms));
  return 'done';
});

/** Computes for `ms` of wall-clock time (a pattern gone quadratic, as far as a budget can tell). */
export const spin = offloadTask(async (ms: number) => {
  const until = Date.now() + ms;
  let n = 0;
  while (Date.now() < until) n++;
  return n > 0 ? 'done' : 'none';
});

/** Which thread ran it. */
export const threadIdOf = offloadTask(async () => threadId);
