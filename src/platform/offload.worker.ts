// What an offload thread's task (offload.ts) does first: note which thread it is
// and how much CPU time it had used when the task began, in a slot the pool
// reads to hold the task to a budget of CPU time. A task module exports its
// functions wrapped in offloadTask.
import { readFileSync, readlinkSync } from 'node:fs';

/** This thread's Linux task id, or 0 where /proc cannot say (the pool then keeps to wall-clock time). */
const tid = ((): number => {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop()) || 0;
  } catch {
    return 0;
  }
})();

/** utime + stime of a thread, in clock ticks, from its /proc stat line. */
export function threadTicks(statText: string): number {
  const f = statText.slice(statText.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime and stime fields 14 and 15 (proc(5)).
  return Number(f[11]) + Number(f[12]);
}

/** Time a thread has spent waiting for a core (run-queue delay), in ms, from its /proc schedstat line. */
export function runQueueMs(schedstatText: string): number {
  return Number(schedstatText.split(' ')[1]) / 1e6;
}

/** The error a task ends with when its own deadline passes (a waiting task's, offload.ts); the pool answers OverBudget. */
export const OVER_TIME = 'over the time budget';

/**
 * What offload.run hands a thread: the task's own input, the slot for the thread's id and starting CPU time, and
 * for a waiting task (a wall-clock budget) its deadline in ms from when the thread takes it.
 */
export interface OffloadTask<I> {
  input: I;
  slot: SharedArrayBuffer;
  deadlineMs: number | null;
}

/** A signal that never aborts: a computing task's budget is kept from outside, by ending its thread. */
const NEVER = new AbortController().signal;

/**
 * A task function as the pool calls it: the slot filled in, then `fn` on the input. A waiting task shares its thread
 * with others, so it is ended here at its deadline rather than with its thread: the task rejects with OVER_TIME, and
 * `signal` tells `fn` to give up what it waits for (a task that ignores it is ended with its thread later).
 */
export function offloadTask<I, O>(fn: (input: I, signal: AbortSignal) => Promise<O>): (task: OffloadTask<I>) => Promise<O> {
  return (task) => {
    if (tid) {
      const view = new Float64Array(task.slot);
      view[1] = threadTicks(readFileSync('/proc/thread-self/stat', 'latin1'));
      view[2] = runQueueMs(readFileSync('/proc/thread-self/schedstat', 'latin1'));
      view[0] = tid;
    }
    if (task.deadlineMs === null) return fn(task.input, NEVER);
    const signal = AbortSignal.timeout(task.deadlineMs);
    return new Promise<O>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error(OVER_TIME)), { once: true });
      fn(task.input, signal).then(resolve, reject);
    });
  };
}
