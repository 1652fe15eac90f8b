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
import { Piscina } from 'piscina';

export interface Offload {
  /**
   * Runs `fn` of the module at `module` (a file URL) on `input` in a thread; rejects with OverBudget when it takes
   * too long or too much heap. What `transfer` lists (each also somewhere in `input`) is moved to the thread, not cloned.
   */
  run<T>(module: URL, fn: string, input: unknown, budget: { timeoutMs: number }, transfer?: TransferListItem[]): Promise<T>;
  /** Ends the threads (the service's close). */
  close(): Promise<void>;
}

/** The task ran out of time or heap: its thread was ended. */
export class OverBudget extends Error {}

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

export function offload(opts: { threads?: number; heapMb: number }): Offload {
  // One thread per core but one: the event loop keeps a core for the API while mail is parsed.
  const threads = opts.threads ?? Math.max(1, availableParallelism() - 1);
  const pool = new Piscina({
    minThreads: 0,
    maxThreads: threads,
    // A thread idle for a minute goes: a process that sees little mail holds no parser in memory.
    idleTimeout: 60_000,
    ...(threadExecArgv() ? { execArgv: threadExecArgv() } : {}),
    resourceLimits: { maxOldGenerationSizeMb: opts.heapMb },
    // Parsing is background work: when the cores are busy, the scheduler runs the event loop (the API) first.
    // (piscina's optional @napi-rs/nice; where it is missing the threads run at the process's priority.)
    niceIncrement: 10,
  });
  // Tasks wait here, not in piscina's queue, so that a budget's clock starts when a thread is free for it.
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    if (running < threads) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async run<T>(module: URL, fn: string, input: unknown, budget: { timeoutMs: number }, transfer?: TransferListItem[]): Promise<T> {
      await slot();
      const signal = AbortSignal.timeout(budget.timeoutMs);
      try {
        return (await pool.run(input, { filename: module.href, name: fn, signal, ...(transfer ? { transferList: transfer } : {}) })) as T;
      } catch (e) {
        if (signal.aborted) throw new OverBudget(`over the time budget (${budget.timeoutMs} ms)`);
        if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new OverBudget('over the heap budget');
        throw e;
      } finally {
        release();
      }
    },
    close: () => pool.destroy(),
  };
}
