// Work on untrusted input, off the event loop (design invariant 20): a pool of
// worker threads (piscina) that runs a function of a module within a budget.
// The time budget starts when a thread takes the task, not when it is queued
// (waiting behind other mail is not the message's fault); when it runs out the
// thread is ended, whatever it was doing, and the pool starts another. Each
// thread has a heap of its own (a message that needs more ends its thread, not
// the process). The API's event loop only copies bytes in and results out.
//
// A task may be handed things to move rather than copy: a MessagePort, over
// which a thread asks the event loop for what only the loop holds (a resolver
// made of closures cannot cross). The other end stays with the caller, which
// closes it however the task ends: a thread ended over budget closes nothing.
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TransferListItem } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';
import { Piscina } from 'piscina';
import { OVER_TIME, runQueueMs, threadTicks, type OffloadTask } from './offload.worker.js';

export interface Offload {
  /**
   * Runs `fn` of the module at `module` (a file URL) on `input` in a thread; rejects with OverBudget when it takes
   * too long or too much heap. What `transfer` lists (each also somewhere in `input`) is moved to the thread, not cloned.
   */
  run<T>(module: URL, fn: string, input: unknown, budget: Budget, transfer?: TransferListItem[]): Promise<T>;
  /** Ends the threads (the service's close). */
  close(): Promise<void>;
}

/**
 * `clock`: 'cpu' (the default) counts the thread's CPU time (see watchBudget); 'wall' counts wall-clock time less
 * the thread's waits for a core, for a task whose budget is meant to cover waiting too (sender authentication waits
 * for DNS answers).
 */
export interface Budget {
  timeoutMs: number;
  clock?: 'cpu' | 'wall';
}

/** The task ran out of time or heap: its thread was ended. */
export class OverBudget extends Error {}

/** Whether /proc tells each thread's CPU time (Linux); elsewhere budgets are wall-clock time. */
const THREAD_CPU = existsSync('/proc/thread-self/stat');
/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;
/** However starved, a task is ended after this many times its budget in wall-clock time. */
const STARVED_LIMIT = 10;

/**
 * Ends a task (`abort`) once it has run for its budget. The budget is the thread's CPU time where Linux's /proc
 * tells it (the task notes its thread's id and starting CPU time in `slot`: offloadTask, offload.worker.ts), and wall-clock time
 * elsewhere. A budget in wall-clock time alone refused good mail on a busy machine: a 20 MB message whose parse
 * needs 3 s of CPU was ended at 10 s of waiting for a core, and answered 552 for good. A thread that was starved
 * is given up to STARVED_LIMIT times its budget in wall-clock time; one that spent its budget computing (a
 * pattern gone quadratic) is ended as soon as that is seen, at most a tick after it ran out.
 */
function watchBudget(slot: SharedArrayBuffer, budgetMs: number, clock: 'cpu' | 'wall', abort: () => void): () => void {
  const view = new Float64Array(slot);
  const started = Date.now();
  /** The time the budget counts so far, or null where /proc cannot say (then it is wall-clock time). */
  const spentMs = (wall: number): number | null => {
    if (!THREAD_CPU) return null;
    const tid = view[0];
    // Not begun yet (the thread is loading the task's module, or waits for a core): nothing spent on the input.
    if (!tid) return clock === 'cpu' ? 0 : null;
    try {
      if (clock === 'cpu') return ((threadTicks(readFileSync(`/proc/self/task/${tid}/stat`, 'latin1')) - view[1]!) * 1000) / TICKS_PER_SECOND;
      // Wall-clock time but the thread's waits for a core (schedstat's run-queue delay): waiting for DNS counts.
      return wall - (runQueueMs(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1')) - view[2]!);
    } catch {
      return null;
    }
  };
  let timer: NodeJS.Timeout;
  const check = () => {
    const wall = Date.now() - started;
    const cpu = spentMs(wall);
    if (cpu === null ? wall >= budgetMs : cpu >= budgetMs || wall >= budgetMs * STARVED_LIMIT) return abort();
    // Not over yet: look again when the budget could next be spent (at least a tick of CPU time later).
    timer = setTimeout(check, Math.max(10, cpu === null ? budgetMs - wall : Math.min(budgetMs - cpu, budgetMs * STARVED_LIMIT - wall)));
  };
  timer = setTimeout(check, budgetMs);
  return () => clearTimeout(timer);
}

/**
 * Bytes in memory a thread can read without a copy (a structured clone of 20 MB holds the event loop about
 * 100 ms): the SMTP receiver gathers a message there; any other Buffer (the HTTP route's) is copied there, and
 * a caller that hands the same bytes to several tasks shares them once.
 */
export function inSharedMemory(bytes: Buffer): Buffer {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = Buffer.from(new SharedArrayBuffer(bytes.length));
  bytes.copy(copy);
  return copy;
}

/**
 * Under tsx (npm start, the tests) a module is a .ts file, which a thread can load only with tsx's loader. A
 * process started with `--import tsx` passes that on (threads inherit the process's options when none are
 * given), but one that registered tsx another way would not, so the loader is named then. From JavaScript
 * (dist/, the tests' transpiled copy) nothing is named. Never the process's own options: V8's (dist's
 * --max-old-space-size) are refused by a thread.
 */
function threadExecArgv(): string[] | undefined {
  const own = fileURLToPath(import.meta.url);
  if (path.extname(own) !== '.ts' || process.execArgv.some((a) => a.includes('tsx'))) return undefined;
  return ['--import', import.meta.resolve('tsx')];
}

/** How many waiting tasks (budget clock 'wall') one thread runs at once: they mostly wait for answers, not compute. */
export const WAITING_TASKS_PER_THREAD = 8;
/**
 * A waiting task ends itself at its budget (offloadTask), and its thread's other tasks go on. One still running this
 * long after (computing, not waiting) is ended with its pool's threads, and the tasks beside it fail with it.
 */
const WAITING_GRACE_MS = 1000;

/**
 * Two pools of `threads` threads each, started on first use. A task held to CPU time computes (parsing): it has a
 * thread to itself, and the others wait their turn (here, so that a budget's clock starts when a thread is free for
 * it). A task held to wall-clock time waits (sender authentication waits for DNS answers): a thread runs
 * WAITING_TASKS_PER_THREAD of them at once. In one pool, a sender whose DNS answered slowly held the only parser
 * thread for as long as its authentication's budget (20 s by default), and every other message waited behind it.
 */
export function offload(opts: { threads?: number; heapMb: number }): Offload {
  // One thread per core but one: the event loop keeps a core for the API while mail is parsed.
  const threads = opts.threads ?? Math.max(1, availableParallelism() - 1);
  const computing = lane(() => pool(threads, 1, opts.heapMb), threads, 'cpu');
  const waiting = lane(() => pool(threads, WAITING_TASKS_PER_THREAD, opts.heapMb), threads * WAITING_TASKS_PER_THREAD, 'wall');
  return {
    run: <T>(module: URL, fn: string, input: unknown, budget: Budget, transfer?: TransferListItem[]) =>
      ((budget.clock ?? 'cpu') === 'cpu' ? computing : waiting).run<T>(module, fn, input, budget, transfer),
    close: async () => {
      await Promise.all([computing.close(), waiting.close()]);
    },
  };
}

function pool(threads: number, tasksPerThread: number, heapMb: number): Piscina {
  return new Piscina({
    minThreads: 0,
    maxThreads: threads,
    concurrentTasksPerWorker: tasksPerThread,
    // A thread idle for a minute goes: a process that sees little mail holds no parser in memory.
    idleTimeout: 60_000,
    ...(threadExecArgv() ? { execArgv: threadExecArgv() } : {}),
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    // Parsing is background work: when the cores are busy, the scheduler runs the event loop (the API) first.
    // (piscina's optional @napi-rs/nice; where it is missing the threads run at the process's priority.)
    niceIncrement: 10,
  });
}

/**
 * A pool that takes at most `capacity` tasks at once; the rest wait here, their budget's clock not yet started.
 * A computing task over its budget is ended with its thread (piscina's abort, which also keeps the thread to that
 * one task). Waiting tasks share threads, so they carry no abort signal: each ends itself at its deadline, and the
 * rare one that does not (it computes) is ended by replacing the pool, whose threads end with whatever they ran.
 */
function lane(make: () => Piscina, capacity: number, clock: 'cpu' | 'wall'): Offload {
  let current = make();
  let running = 0;
  const queued: (() => void)[] = [];
  const slot = async () => {
    if (running < capacity) running++;
    else await new Promise<void>((resolve) => queued.push(resolve));
  };
  const release = () => {
    const next = queued.shift();
    if (next) next();
    else running--;
  };
  return {
    async run<T>(module: URL, fn: string, input: unknown, budget: Budget, transfer?: TransferListItem[]): Promise<T> {
      await slot();
      const slotView = new SharedArrayBuffer(24);
      const controller = new AbortController();
      const deadlineMs = clock === 'wall' ? budget.timeoutMs : null;
      const pool = current;
      const stop = watchBudget(slotView, budget.timeoutMs + (deadlineMs === null ? 0 : WAITING_GRACE_MS), clock, () => {
        controller.abort();
        if (clock === 'wall' && current === pool) {
          current = make();
          void pool.destroy();
        }
      });
      try {
        return (await pool.run({ input, slot: slotView, deadlineMs } satisfies OffloadTask<unknown>, {
          filename: module.href,
          name: fn,
          ...(clock === 'cpu' ? { signal: controller.signal } : {}),
          ...(transfer ? { transferList: transfer } : {}),
        })) as T;
      } catch (e) {
        if (controller.signal.aborted || (e as Error | undefined)?.message === OVER_TIME) throw new OverBudget(`${OVER_TIME} (${budget.timeoutMs} ms)`);
        if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new OverBudget('over the heap budget');
        throw e;
      } finally {
        stop();
        release();
      }
    },
    close: () => current.destroy(),
  };
}
