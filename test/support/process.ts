// Runs the real entry points (src/main.ts, src/cli.ts) as child processes for
// process-level e2e tests: real signals, real ports on 127.0.0.1, output kept
// so a failure can say what the child printed.
import { CONFIG_VARS as SERVICE_VARS } from '../../src/config.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { testEventStoreEnv } from './event-store.js';
import { Client } from './http.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every variable the service's config reads, plus the test fixture's own: never inherited by a child. */
const CONFIG_VARS = [...SERVICE_VARS, 'TEST_PG_ADMIN_URL'];

/**
 * The parent's environment without any service configuration, the fixture's password cost, plus `vars` (undefined
 * values are left out).
 * A child given a DATABASE_URL keeps its log in the run's event store (TEST_EVENT_STORE, test/support/event-store.ts)
 * unless `vars` names EVENTSTORE_URL itself.
 */
export function childEnv(vars: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CONFIG_VARS) delete env[k];
  if (!('EVENTSTORE_URL' in vars)) Object.assign(env, testEventStoreEnv(vars.DATABASE_URL));
  // The fixture's password cost, as in-process services have it (support/service.ts): children set and check passwords too.
  env.PASSWORD_HASH_COST = '10';
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** resolves once the child has exited (never rejects) */
  exited: Promise<Exit>;
  hasExited(): boolean;
  kill(signal: NodeJS.Signals): void;
  /** the last `n` characters of stderr and stdout, for failure messages */
  tail(n?: number): string;
}

/**
 * `node <script> ...args` from the repository root: a script of src/ from the run's transpiled copy when the
 * global fixture made one (TEST_CHILD_BUILD, test/support/child-build.ts), else `node --import tsx <script>`.
 */
export function spawnNode(script: string, args: string[], env: NodeJS.ProcessEnv): NodeProcess {
  const built = process.env.TEST_CHILD_BUILD;
  const argv =
    built && script.startsWith('src/')
      ? ['--enable-source-maps', path.join(built, script.slice('src/'.length).replace(/\.ts$/, '.js')), ...args]
      : ['--import', 'tsx', script, ...args];
  const child = spawn(process.execPath, argv, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  let done = false;
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (e) => {
      err += `\n[spawn error] ${String(e)}`;
      done = true;
      resolve({ code: null, signal: null });
    });
    child.once('close', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const proc: NodeProcess = {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    exited,
    hasExited: () => done,
    kill: (signal) => {
      if (!done) child.kill(signal);
    },
    tail: (n = 3000) => `--- stderr (tail) ---\n${err.slice(-n)}\n--- stdout (tail) ---\n${out.slice(-n)}`,
  };
  return proc;
}

/** Resolves with the exit, or rejects after `ms` (the child is left alone: the caller decides). */
export async function exitWithin(p: NodeProcess, ms: number, what = 'process'): Promise<Exit> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} (pid ${p.pid}) did not exit within ${ms} ms\n${p.tail()}`)), ms);
  });
  try {
    return await Promise.race([p.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface CliResult {
  exit: Exit;
  stdout: string;
  stderr: string;
  /** stdout's last non-empty line parsed as JSON, when it is JSON */
  json: any;
}

/** Runs `src/cli.ts` to completion (killed with SIGKILL after `timeoutMs`). */
export async function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<CliResult> {
  const p = spawnNode('src/cli.ts', args, env);
  let exit: Exit;
  try {
    exit = await exitWithin(p, timeoutMs, `cli ${args.join(' ')}`);
  } catch (e) {
    p.kill('SIGKILL');
    await p.exited;
    throw e;
  }
  const last = p.stdout().trim().split('\n').pop() ?? '';
  let json: unknown = undefined;
  try {
    json = last ? JSON.parse(last) : undefined;
  } catch {
    json = undefined;
  }
  return { exit, stdout: p.stdout(), stderr: p.stderr(), json };
}

export interface ServiceProcess extends NodeProcess {
  port: number;
  url: string;
  client: Client;
}

/**
 * Starts `src/main.ts` on a free port of 127.0.0.1 and waits (bounded) until
 * /readyz answers 200. Fails early, with the child's output, if it exits first.
 */
export async function spawnService(vars: Record<string, string | undefined>, opts: { readyTimeoutMs?: number } = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const p = spawnNode('src/main.ts', [], childEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...vars, PORT: String(port) }));
  const url = `http://127.0.0.1:${port}`;
  // A hang guard (.mocharc.cjs): with the log in EventStoreDB a child also loads the gRPC client and asks the server
  // its version before /readyz answers, and on the loaded 2-core machine starts took over 30 s (rate-limit.e2e,
  // process/webhooks-sigkill.e2e, ECONNREFUSED until then).
  const readyMs = opts.readyTimeoutMs ?? 90_000;
  const deadline = Date.now() + readyMs;
  let last = 'no answer yet';
  for (let attempt = 0; ; attempt++) {
    if (p.hasExited()) {
      const x = await p.exited;
      throw new Error(`service exited before it was ready (code ${x.code}, signal ${x.signal})\n${p.tail()}`);
    }
    if (Date.now() > deadline || attempt > 10_000) {
      p.kill('SIGKILL');
      await p.exited;
      throw new Error(`service not ready within ${readyMs} ms (last: ${last})\n${p.tail()}`);
    }
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      last = `${r.status} ${await r.text()}`;
      if (r.status === 200) break;
    } catch (e) {
      last = String((e as Error).cause ?? e);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ...p, port, url, client: new Client(url) };
}

/** The cookie of a fresh session, or an error carrying the answer. */
export async function signInOver(client: Client, email: string, password: string): Promise<{ status: number; cookie: string; text: string }> {
  const r = await client.post('/api/session', { email, password });
  return { status: r.status, cookie: (r.headers.get('set-cookie') ?? '').split(';')[0]!, text: r.text };
}

/** True when `pid` is a live process (a zombie waiting to be reaped counts as dead). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S ..." — comm may hold spaces and parentheses; the state follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}
