// The real parts of the production topology, as child processes of the
// scale-out run: service processes on fixed ports (so a restarted one comes back
// where nginx expects it), nginx from the Debian package as the load balancer,
// and a last-resort stop of the embedded Postgres (which the run halts and
// resumes through its cluster handle, on the same data directory and port).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, promises as fs, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARS } from '../../src/config.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Rate limits far above the run's load: twenty clients flat out with one key are well over the defaults (10,000
 * requests a minute per key), and the run checks what faults do to writes, not refusals (the limits across
 * processes have their own test: test/api/rate-limit.e2e.test.ts).
 */
const RATE_LIMITS_ABOVE_THE_LOAD = {
  RATE_LIMIT_KEY: '1000000000',
  RATE_LIMIT_WORKSPACE: '1000000000',
  RATE_LIMIT_EXPENSIVE: '1000000000',
  RATE_LIMIT_CHANNEL: '1000000000',
};

/** The parent's environment without any service configuration, plus `vars`. */
export function serviceEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of CONFIG_VARS) delete env[k];
  return { ...env, ...RATE_LIMITS_ABOVE_THE_LOAD, ...vars };
}

/** The last `lines` lines of a log file (for failure reports). */
export function tailFile(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Polls `url` until it answers 200; fails early when `alive()` turns false. */
export async function waitHttpOk(url: string, timeoutMs: number, alive: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${what} exited before it was ready (last: ${last})`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1500) });
      last = `${r.status}`;
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch (e) {
      last = String((e as Error).cause ?? e);
    }
    await sleep(100);
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms (last: ${last})`);
}

/** One service process (`node --import tsx src/main.ts`) on a fixed port; restartable. */
export class ServiceSlot {
  private child: ChildProcess | null = null;
  /** set by stop(): the slot never starts again (a restart racing the teardown leaves no orphan) */
  private closed = false;
  starts = 0;
  kills = 0;
  readonly logFile: string;

  constructor(
    readonly name: string,
    readonly role: 'api' | 'worker',
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
    logDir: string,
  ) {
    this.logFile = path.join(logDir, `${name}.log`);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns the process and waits (bounded) until /readyz answers 200. */
  async start(readyTimeoutMs = 90_000): Promise<void> {
    if (this.running()) throw new Error(`${this.name} is already running`);
    if (this.closed) throw new Error(`${this.name} is stopped for good`);
    const fd = openSync(this.logFile, 'a');
    writeSync(fd, `\n=== ${new Date().toISOString()} start #${this.starts + 1} of ${this.name} (${this.role}) on port ${this.port}\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: REPO_ROOT, env: this.env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    this.child = child;
    this.starts++;
    await waitHttpOk(`${this.url}/readyz`, readyTimeoutMs, () => this.child === child && this.running(), this.name).catch((e) => {
      throw new Error(`${(e as Error).message}\n--- ${this.logFile} (tail) ---\n${tailFile(this.logFile)}`);
    });
  }

  /** SIGKILL: no shutdown hook runs, in-flight requests and leases are cut off. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running()) return;
    child.kill('SIGKILL');
    this.kills++;
    await waitExit(child);
  }

  /** SIGTERM (graceful), SIGKILL after `ms`; the slot stays stopped. */
  async stop(ms = 20_000): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child || !this.running()) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), ms);
    await waitExit(child);
    clearTimeout(t);
  }
}

// ---- Postgres ----

/** Last resort: an immediate shutdown of whatever postmaster runs on `pgdata`. */
export async function killPostgres(pgdata: string): Promise<void> {
  try {
    const pid = Number(readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    /* not running */
  }
}

// ---- nginx ----

export const NGINX = '/usr/sbin/nginx';

/**
 * nginx from Debian's package. Missing: installed with apt-get when we are root
 * (service start suppressed with a temporary policy-rc.d, so no system nginx is
 * left running on port 80), otherwise a clear error.
 */
export async function ensureNginx(log: (m: string) => void): Promise<void> {
  if (existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`nginx is not installed (${NGINX} is missing). Install Debian's package first: sudo apt-get install -y nginx`);
  }
  log('nginx missing: apt-get install -y nginx');
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) await fs.writeFile(policy, '#!/bin/sh\n# written by scripts/scale-out: do not start services while installing\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'nginx']]) {
      const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 300_000 });
      if (r.status !== 0)
        throw new Error(`apt-get ${args.join(' ')} failed (status ${r.status}):\n${(r.stderr || r.stdout || String(r.error ?? '')).slice(-2000)}`);
    }
  } finally {
    if (ownPolicy) await fs.rm(policy, { force: true });
  }
  if (!existsSync(NGINX)) throw new Error(`apt-get installed nginx but ${NGINX} is still missing`);
}

export interface NginxOptions {
  dir: string;
  listenPort: number;
  upstreamPorts: number[];
}

/**
 * The load balancer's configuration. What it does with a failed upstream:
 * `proxy_next_upstream error timeout` (nginx's default, spelled out) tries the
 * next API process when a connection cannot be made, which is safe for any
 * method because the request never reached a service. It never re-sends a
 * POST that already went out (nginx refuses to unless `non_idempotent` is
 * added, which we do not): a write cut off mid-request answers 502 and the
 * client retries it with its Idempotency-Key, so the service decides whether
 * it already happened. `http_502`/`http_500` are left out: the service's own
 * 5xx answers are not transport failures and must reach the client.
 */
export function nginxConf(o: NginxOptions): string {
  const d = o.dir;
  const user = process.getuid?.() === 0 ? 'user nobody nogroup;\n' : '';
  return `# written by scripts/scale-out/procs.ts
daemon off;
master_process on;
worker_processes 1;
${user}pid ${d}/nginx.pid;
error_log ${d}/error.log warn;
events { worker_connections 2048; }
http {
  log_format upstream '$msec $request_method $uri $status upstream=$upstream_addr ustatus=$upstream_status rt=$request_time';
  access_log ${d}/access.log upstream;
  client_body_temp_path ${d}/client_body;
  proxy_temp_path ${d}/proxy;
  fastcgi_temp_path ${d}/fastcgi;
  uwsgi_temp_path ${d}/uwsgi;
  scgi_temp_path ${d}/scgi;
  # Uploads take up to UPLOAD_MAX_BYTES (20 MiB) and a form's framing; the service refuses larger JSON itself.
  client_max_body_size 21m;
  client_body_buffer_size 1m;

  upstream api {
${o.upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }

  server {
    listen 127.0.0.1:${o.listenPort};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
      proxy_send_timeout 30s;
      proxy_read_timeout 30s;
      proxy_buffering off;
    }
  }
}
`;
}

export class Nginx {
  private child: ChildProcess | null = null;
  readonly conf: string;
  readonly logFile: string;

  constructor(private readonly o: NginxOptions) {
    this.conf = path.join(o.dir, 'nginx.conf');
    this.logFile = path.join(o.dir, 'nginx.out');
  }

  get url(): string {
    return `http://127.0.0.1:${this.o.listenPort}`;
  }

  async start(): Promise<void> {
    await fs.mkdir(this.o.dir, { recursive: true, mode: 0o755 });
    await fs.writeFile(this.conf, nginxConf(this.o));
    const args = ['-p', this.o.dir, '-c', this.conf, '-e', path.join(this.o.dir, 'error.log')];
    const test = spawnSync(NGINX, ['-t', ...args], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx -t rejected ${this.conf}:\n${test.stderr}`);
    const fd = openSync(this.logFile, 'a');
    const child = spawn(NGINX, args, { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    this.child = child;
    await waitHttpOk(`${this.url}/healthz`, 20_000, () => child.exitCode === null && child.signalCode === null, 'nginx').catch((e) => {
      throw new Error(`${(e as Error).message}\n${tailFile(path.join(this.o.dir, 'error.log'))}`);
    });
  }

  /** Graceful stop (SIGQUIT), SIGKILL after a few seconds. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGQUIT');
    const t = setTimeout(() => {
      // the master's workers are ours too: find them before the master goes
      const kids = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .map(Number)
        .filter((n) => n > 0);
      child.kill('SIGKILL');
      for (const k of kids) {
        try {
          process.kill(k, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }, 5_000);
    await waitExit(child);
    clearTimeout(t);
  }
}
