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
import { Worker, type TransferListItem } from 'node:worker_threads';
import { existsSync, readFileSync } from 'node:fs';
import { Piscina } from 'piscina';
import { runQueueMs, threadTicks } from './offload.worker.js';

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

/** A SharedArrayBuffer that grows in place up to its maxByteLength (ES2024; Node 20's V8 has it, the ES2022 typings do not). */
type GrowableShared = SharedArrayBuffer & { grow(n: number): void };
const growableShared = (max: number) =>
  new (SharedArrayBuffer as unknown as new (length: number, o: { maxByteLength: number }) => GrowableShared)(0, { maxByteLength: max });

/**
 * How far ahead of the bytes gathered so far the buffer is grown (and its pages faulted in): as far as it holds, up
 * to this. The thread faults a page in about as fast as the event loop takes in 10 KiB: with 1 MiB it often fell
 * behind once chunks came quickly (a third of the pages were still the event loop's); 4 MiB keeps it ahead.
 */
const RUNWAY_MAX = 4 * 1024 * 1024;
/** A shorter stretch of new pages is left to the event loop's own writes: asking the thread would cost about as much. */
const PREFAULT_MIN = 64 * 1024;
const PAGE = 4096;

/**
 * A thread that writes once to each page of a range of shared memory, so that the event loop's own writes there
 * later find the page already mapped. The first write to a page of fresh memory is a page fault that the kernel
 * serves on the writing thread: on the 2-core VMs measured (issue 43) 20 to 40 µs a 4 KiB page, so gathering a
 * 20 MB message cost the event loop 100 to 150 ms of CPU in faults alone, against 2 to 5 ms for copying the bytes
 * (on bare metal a fault is nearer 1 µs: 5 to 10 ms a message, still twice the copy). The write is an atomic add of
 * 0: it changes nothing, even on a page the event loop is writing at the same moment. One thread for the whole
 * receiver, started with the first message that needs it (a few ms of the event loop's CPU, once); if it ever
 * fails, the event loop faults its pages in itself, as before (slower, the same bytes).
 */
export interface Prefaulter {
  /** Asks the thread to fault in the pages of `buffer` from `from` to `to` (bytes), without waiting for it. */
  touch(buffer: SharedArrayBuffer, from: number, to: number): void;
  /** Pages the thread has faulted in so far, counted once it has done every range asked before the call. */
  settled(): Promise<number>;
  close(): Promise<void>;
}

// CommonJS, evaluated: the same under tsx and from JavaScript, and no loader to start in the thread.
const TOUCHER = `
const { parentPort, workerData: pages } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.ping) return parentPort.postMessage(m.ping);
  const bytes = new Uint8Array(m.buffer);
  const to = Math.min(m.to, bytes.length);
  let n = 0;
  for (let i = m.from - (m.from % ${PAGE}); i < to; i += ${PAGE}, n++) Atomics.add(bytes, i, 0);
  Atomics.add(pages, 0, n);
});
`;

export function prefaulter(): Prefaulter {
  const pages = new Int32Array(new SharedArrayBuffer(4));
  let thread: Worker | null = null;
  let failed = false;
  let pings = 0;
  const start = () => {
    if (thread || failed) return thread;
    let w: Worker;
    try {
      // No execArgv: the process's (tsx's loader, dist's V8 heap flags) are nothing this thread needs, and some it refuses.
      w = new Worker(TOUCHER, { eval: true, execArgv: [], workerData: pages, resourceLimits: { maxOldGenerationSizeMb: 16 } });
    } catch {
      // No thread to be had (a process at its limit): the event loop faults its pages in itself, the message is received all the same.
      failed = true;
      return null;
    }
    w.unref();
    w.on('error', () => (failed = true));
    w.on('exit', () => {
      if (thread === w) thread = null;
    });
    thread = w;
    return w;
  };
  return {
    touch(buffer, from, to) {
      start()?.postMessage({ buffer, from, to });
    },
    async settled() {
      const w = thread;
      if (w) {
        const ping = ++pings;
        await new Promise<void>((resolve) => {
          // Messages are handled in order: this ping's answer comes once every range asked before it is done.
          const finish = () => {
            w.off('message', answer);
            w.off('exit', finish);
            resolve();
          };
          const answer = (pong: unknown) => void (typeof pong === 'number' && pong >= ping && finish());
          w.on('message', answer);
          w.on('exit', finish);
          w.postMessage({ ping });
        });
      }
      return Atomics.load(pages, 0);
    },
    async close() {
      // For good: a message still arriving after the receiver stopped faults its own pages, it starts no thread.
      failed = true;
      await thread?.terminate();
      thread = null;
    },
  };
}

/** What gathering cost the event loop: bytes it copied, and how many times it grew a buffer. */
export interface GatherStats {
  bytes: number;
  grows: number;
}

/**
 * Bytes that arrive in chunks (an SMTP message's DATA), gathered into shared memory that a thread reads without a
 * copy: each chunk is copied once, where it ends up, and nothing copies the whole (one copy of a 20 MB message in
 * a single task, Buffer.concat or a structured clone to the thread, held the event loop for tens of ms). The buffer
 * grows in place and ahead of the bytes, by as much as it holds up to RUNWAY_MAX (a grow is a system call: one a
 * chunk was 320 for 20 MB, this is about 20), and the pages ahead are the prefaulter's to fault in while the next
 * chunks arrive. What is grown, and faulted in, ahead of the bytes is never more than the bytes themselves nor
 * more than RUNWAY_MAX: a message's memory is at most twice its size, and 4 MiB past it, while it arrives.
 */
export class SharedGather {
  private readonly shared: GrowableShared;
  /** a view that follows the buffer's length as it grows */
  private readonly view: Uint8Array;
  private length = 0;

  constructor(
    private readonly max: number,
    private readonly prefault: Prefaulter | null,
    private readonly stats: GatherStats = { bytes: 0, grows: 0 },
  ) {
    this.shared = growableShared(max);
    this.view = new Uint8Array(this.shared);
  }

  /** Appends `chunk`; false (and nothing kept) when it would take the bytes past the maximum. */
  append(chunk: Uint8Array): boolean {
    const end = this.length + chunk.length;
    if (end > this.max) return false;
    // Past what was grown ahead (the first chunks, or chunks that outran the runway): this chunk's pages are the event loop's.
    if (end > this.shared.byteLength) this.grow(end);
    this.view.set(chunk, this.length);
    this.length = end;
    this.stats.bytes += chunk.length;
    // Half the runway used: the next stretch is grown now, so the thread has it faulted in before the chunks get there.
    if (this.shared.byteLength - end < runway(end) / 2) this.grow(end);
    return true;
  }

  /** The bytes gathered, in the shared memory (no copy). */
  bytes(): Buffer {
    return Buffer.from(this.shared, 0, this.length);
  }

  private grow(end: number): void {
    const from = this.shared.byteLength;
    const to = Math.min(this.max, end + runway(end));
    if (to <= from) return;
    this.shared.grow(to);
    this.stats.grows++;
    const ahead = Math.max(from, end);
    if (this.prefault && to - ahead >= PREFAULT_MIN) this.prefault.touch(this.shared, ahead, to);
  }
}

const runway = (length: number) => Math.min(length, RUNWAY_MAX);

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
    async run<T>(module: URL, fn: string, input: unknown, budget: Budget, transfer?: TransferListItem[]): Promise<T> {
      await slot();
      const slotView = new SharedArrayBuffer(24);
      const controller = new AbortController();
      const stop = watchBudget(slotView, budget.timeoutMs, budget.clock ?? 'cpu', () => controller.abort());
      try {
        return (await pool.run(
          { input, slot: slotView },
          { filename: module.href, name: fn, signal: controller.signal, ...(transfer ? { transferList: transfer } : {}) },
        )) as T;
      } catch (e) {
        if (controller.signal.aborted) throw new OverBudget(`over the time budget (${budget.timeoutMs} ms)`);
        if ((e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new OverBudget('over the heap budget');
        throw e;
      } finally {
        stop();
        release();
      }
    },
    close: () => pool.destroy(),
  };
}
