// The service under test, in a process of its own: `node --import tsx
// src/main.ts`, configured only through its environment, exactly as an
// operator would run it. Its resident set is read from /proc/<pid>/status.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARS as SERVICE_VARS } from '../../src/config.js';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { REPO_ROOT } from './child.js';
import { sleep } from './stats.js';

export const CHANNELS_SECRET = 'bench-channels-secret-0123456789abcdef';
export const SECRETS_KEY = 'bench-secrets-key-0123456789abcdef0123';

export interface ServiceOptions {
  databaseUrl: string;
  dataDir: string;
  logFile: string;
  logLevel: string;
  /** write a V8 CPU profile of the service into this folder when it exits */
  cpuProfDir?: string;
  /** run this compiled entry point (node <file>) instead of `node --import tsx src/main.ts` */
  compiledEntry?: string;
  /** more service settings (e.g. ROW_LEVEL_SECURITY=off for the rls scenario's second process) */
  env?: Record<string, string>;
  /** another checkout's service (bench/interleave.ts): run from there, with that checkout's start:prod flags */
  checkout?: { dir: string; nodeFlags: string[] };
}

export interface Memory {
  rssMiB: number;
  hwmMiB: number;
}

/** The Node flags of package.json's start:prod script (`node <flags> dist/main.js`), of this checkout or another. */
export function productionNodeFlags(root = REPO_ROOT): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const m = /^node\s+(.*?)\s*dist\/main\.js$/.exec(pkg.scripts['start:prod'] ?? '');
  if (!m) throw new Error(`package.json start:prod is not "node [flags] dist/main.js": ${pkg.scripts['start:prod']}`);
  return m[1] ? m[1].split(/\s+/) : [];
}

export class ServiceProcess {
  private exited = false;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    private readonly logFile: string,
  ) {
    child.once('exit', () => (this.exited = true));
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(o: ServiceOptions): Promise<ServiceProcess> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of SERVICE_VARS) delete env[k]; // the bench sets each one itself, nothing is inherited
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: o.dataDir,
      DATABASE_URL: o.databaseUrl,
      SERVICE_CHANNELS_SECRET: CHANNELS_SECRET,
      SERVICE_SECRETS_KEY: SECRETS_KEY,
      LOG_LEVEL: o.logLevel,
      WEBHOOK_ALLOWLIST: '127.0.0.1',
      NODE_ENV: 'production',
      // Rate limits stay on, with quotas far above what one bench key sends (thousands a second, where the
      // defaults allow a busy integration 10,000 a minute): the loads measure the service, not its refusals.
      RATE_LIMIT_KEY: '1000000000',
      RATE_LIMIT_WORKSPACE: '1000000000',
      RATE_LIMIT_EXPENSIVE: '1000000000',
      RATE_LIMIT_CHANNEL: '1000000000',
      ...o.env,
    });
    // For exploring (heap limits, GC flags), never set by the bench itself.
    if (process.env.BENCH_SERVICE_NODE_OPTIONS) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} ${process.env.BENCH_SERVICE_NODE_OPTIONS}`.trim();
    // BENCH_SERVICE_ENTRY: another main.ts (a patched copy of src, for an experiment), run the same way.
    // The compiled service runs with the Node flags `npm run start:prod` gives it (package.json), so the bench
    // measures what production runs.
    const entry = o.compiledEntry
      ? [...(o.checkout?.nodeFlags ?? productionNodeFlags()), o.compiledEntry]
      : ['--import', 'tsx', process.env.BENCH_SERVICE_ENTRY ?? path.join('src', 'main.ts')];
    const args = [...(o.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', o.cpuProfDir] : []), ...entry];
    const fd = openSync(o.logFile, 'a');
    const child = spawn(process.execPath, args, { cwd: o.checkout?.dir ?? REPO_ROOT, env, stdio: ['ignore', fd, fd] });
    closeSync(fd);
    const svc = new ServiceProcess(child, `http://127.0.0.1:${port}`, o.logFile);
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (svc.exited) throw new Error(`the service exited during start-up\n${svc.logTail()}`);
      try {
        const r = await fetch(`${svc.url}/readyz`);
        if (r.status === 200) return svc;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await svc.stop();
        throw new Error(`the service was not ready within 120 s\n${svc.logTail()}`);
      }
      await sleep(200);
    }
  }

  logTail(n = 3000): string {
    try {
      return readFileSync(this.logFile, 'utf8').slice(-n);
    } catch {
      return '';
    }
  }

  /** VmRSS and VmHWM (peak RSS since start, or since resetPeak) in MiB. */
  memory(): Memory | null {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
    } catch {
      return null;
    }
  }

  /** Resets VmHWM to the current RSS (Linux: "5" into clear_refs); false where that is not possible. */
  resetPeak(): boolean {
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  }

  /** Polls VmRSS every `everyMs` until stopped; returns the highest sample and the final VmHWM. */
  sampleMemory(everyMs = 100): () => { peakRssMiB: number; hwmMiB: number; samples: number } {
    let peak = 0;
    let samples = 0;
    const take = () => {
      const m = this.memory();
      if (m) {
        peak = Math.max(peak, m.rssMiB);
        samples++;
      }
    };
    take();
    const timer = setInterval(take, everyMs);
    return () => {
      clearInterval(timer);
      take();
      return { peakRssMiB: peak, hwmMiB: this.memory()?.hwmMiB ?? NaN, samples };
    };
  }

  /** SIGTERM (graceful: the CPU profile, if any, is written on exit), SIGKILL after 30 s. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await done;
    clearTimeout(timer);
  }
}
