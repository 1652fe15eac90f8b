// Every load generator, baseline and bare server runs in a process of its own
// (forked with tsx and an IPC channel), so none shares an event loop with the
// service or with each other. Two shapes:
//   task:   parent sends an input, the child does its work, answers once, exits.
//   daemon: the child starts something (a server, a listener), answers `ready`,
//           then answers calls until told to stop.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WORKERS_DIR = path.join(REPO_ROOT, 'bench', 'workers');

type Msg =
  | { type: 'run' | 'start'; input: unknown }
  | { type: 'call'; id: number; msg: unknown }
  | { type: 'stop' }
  | { type: 'result' | 'ready' | 'stopped'; output: unknown }
  | { type: 'reply'; id: number; output?: unknown; error?: string }
  | { type: 'error'; message: string };

function forkWorker(name: string, env?: NodeJS.ProcessEnv): ChildProcess {
  // BENCH_WORKER_CPU_PROF=<dir>: every worker writes a V8 CPU profile there (for profiling the rebuild or append workers).
  const prof = process.env.BENCH_WORKER_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_WORKER_CPU_PROF] : [];
  return fork(path.join(WORKERS_DIR, name), [], {
    cwd: REPO_ROOT,
    execArgv: [...prof, '--import', 'tsx'],
    env: env ?? process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function exitError(name: string, code: number | null, signal: string | null): Error {
  return new Error(`bench worker ${name} exited (code ${code}, signal ${signal}) before answering`);
}

/** Runs a task worker to completion and returns its answer. */
export function runTask<O>(name: string, input: unknown, opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<O> {
  const child = forkWorker(name, opts.env);
  return new Promise<O>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(new Error(`bench worker ${name} did not answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs ?? 600_000);
    child.on('message', (m: Msg) => {
      if (settled) return;
      if (m.type === 'result') {
        settled = true;
        clearTimeout(timer);
        resolve(m.output as O);
      } else if (m.type === 'error') {
        settled = true;
        clearTimeout(timer);
        reject(new Error(`bench worker ${name} failed: ${m.message}`));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!settled) {
        settled = true;
        reject(exitError(name, code, signal));
      }
    });
    child.send({ type: 'run', input } satisfies Msg);
  });
}

export interface Daemon<R> {
  pid: number;
  ready: R;
  call<O>(msg: unknown): Promise<O>;
  stop<O = unknown>(): Promise<O>;
}

/** Starts a daemon worker and waits for it to be ready. */
export function startDaemon<R>(name: string, input: unknown, opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<Daemon<R>> {
  const child = forkWorker(name, opts.env);
  let nextId = 1;
  const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let onStopped: ((v: unknown) => void) | null = null;
  let exited = false;
  const failAll = (e: Error) => {
    for (const c of calls.values()) c.reject(e);
    calls.clear();
  };
  return new Promise<Daemon<R>>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      if (ready) return;
      child.kill('SIGKILL');
      reject(new Error(`bench worker ${name} was not ready within ${opts.timeoutMs ?? 60_000} ms`));
    }, opts.timeoutMs ?? 60_000);
    child.on('message', (m: Msg) => {
      if (m.type === 'ready') {
        ready = true;
        clearTimeout(timer);
        resolve({
          pid: child.pid!,
          ready: m.output as R,
          call: <O>(msg: unknown) =>
            new Promise<O>((res, rej) => {
              if (exited) return rej(new Error(`bench worker ${name} has exited`));
              const id = nextId++;
              calls.set(id, { resolve: res as (v: unknown) => void, reject: rej });
              child.send({ type: 'call', id, msg } satisfies Msg);
            }),
          stop: <O>() =>
            new Promise<O>((res) => {
              if (exited) return res(undefined as O);
              onStopped = res as (v: unknown) => void;
              child.send({ type: 'stop' } satisfies Msg);
              // A daemon that does not stop in time is killed; its answer is then lost.
              setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
            }),
        });
      } else if (m.type === 'reply') {
        const c = calls.get(m.id);
        calls.delete(m.id);
        if (m.error) c?.reject(new Error(m.error));
        else c?.resolve(m.output);
      } else if (m.type === 'stopped') {
        onStopped?.(m.output);
      } else if (m.type === 'error') {
        clearTimeout(timer);
        const e = new Error(`bench worker ${name} failed: ${m.message}`);
        if (!ready) reject(e);
        failAll(e);
      }
    });
    child.once('exit', (code, signal) => {
      exited = true;
      clearTimeout(timer);
      const e = exitError(name, code, signal);
      if (!ready) reject(e);
      failAll(e);
      onStopped?.(undefined);
    });
    child.send({ type: 'start', input } satisfies Msg);
  });
}

const describe = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));

function send(m: Msg): Promise<void> {
  return new Promise((resolve) => process.send!(m, () => resolve()));
}

/** Child side of a task worker. */
export function task<I, O>(fn: (input: I) => Promise<O>): void {
  process.once('message', (m: Msg) => {
    if (m.type !== 'run') return;
    fn(m.input as I).then(
      async (output) => {
        await send({ type: 'result', output });
        process.exit(0);
      },
      async (e) => {
        await send({ type: 'error', message: describe(e) });
        process.exit(1);
      },
    );
  });
  // The parent went away: nothing left to answer to.
  process.on('disconnect', () => process.exit(0));
}

export interface DaemonImpl<R> {
  ready: R;
  handle?(msg: any): Promise<unknown>;
  stop(): Promise<unknown>;
}

/** Child side of a daemon worker. */
export function daemon<I, R>(start: (input: I) => Promise<DaemonImpl<R>>): void {
  let impl: DaemonImpl<R> | null = null;
  process.on('message', (m: Msg) => {
    if (m.type === 'start') {
      start(m.input as I).then(
        (d) => {
          impl = d;
          void send({ type: 'ready', output: d.ready });
        },
        async (e) => {
          await send({ type: 'error', message: describe(e) });
          process.exit(1);
        },
      );
    } else if (m.type === 'call') {
      const id = m.id;
      Promise.resolve()
        .then(() => impl!.handle!(m.msg))
        .then(
          (output) => send({ type: 'reply', id, output }),
          (e) => send({ type: 'reply', id, error: describe(e) }),
        );
    } else if (m.type === 'stop') {
      Promise.resolve()
        .then(() => impl?.stop())
        .then(
          async (output) => {
            await send({ type: 'stopped', output });
            process.exit(0);
          },
          async (e) => {
            await send({ type: 'error', message: describe(e) });
            process.exit(1);
          },
        );
    }
  });
  process.on('disconnect', () => process.exit(0));
}
