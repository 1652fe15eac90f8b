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

/** What offload.run hands a thread: the task's own input, and the slot for the thread's id and starting CPU time. */
export interface OffloadTask<I> {
  input: I;
  slot: SharedArrayBuffer;
}

/** A task function as the pool calls it: the slot filled in, then `fn` on the input. */
export function offloadTask<I, O>(fn: (input: I) => Promise<O>): (task: OffloadTask<I>) => Promise<O> {
  return (task) => {
    if (tid) {
      const view = new Float64Array(task.slot);
      view[1] = threadTicks(readFileSync('/proc/thread-self/stat', 'latin1'));
      view[2] = runQueueMs(readFileSync('/proc/thread-self/schedstat', 'latin1'));
      view[0] = tid;
    }
    return fn(task.input);
  };
}
