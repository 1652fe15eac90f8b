// Which service the bench runs. By default what production runs: the output
// of `npm run build` (tsc -p tsconfig.build.json), started as `node <start:prod's flags> main.js`
// with NODE_ENV=production. The build goes to bench/.build/<hash of the
// sources>/ (inside the repository, so the output finds node_modules and the
// package's "type": "module"), once per run, and is reused by a later run
// whose sources, tsconfig files and TypeScript version are the same.
// BENCH_SERVICE=tsx runs `node --import tsx src/main.ts` instead.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { productionNodeFlags } from './service.js';
import { REPO_ROOT } from './child.js';

export type ServiceMode = 'compiled' | 'tsx';

export interface ServiceBuild {
  mode: ServiceMode;
  /** compiled: the main.js to run */
  entry?: string;
  /** one line for the output: what ran, and how it was built */
  describe: string;
  /** compiled: whether this run reused an earlier identical build, and how long the build took */
  cached?: boolean;
  buildSeconds?: number;
}

export function serviceMode(): ServiceMode {
  const v = (process.env.BENCH_SERVICE ?? '').trim();
  if (v === '' || v === 'compiled') return process.env.BENCH_SERVICE_ENTRY ? 'tsx' : 'compiled';
  if (v === 'tsx') return 'tsx';
  throw new Error(`BENCH_SERVICE must be "compiled" (the default) or "tsx", not "${v}"`);
}

const BUILD_ROOT = path.join(REPO_ROOT, 'bench', '.build');
const KEEP_BUILDS = 3;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A hash of everything the build's output depends on. */
function sourceHash(): string {
  const h = createHash('sha256');
  const inputs = [...filesUnder(path.join(REPO_ROOT, 'src')), path.join(REPO_ROOT, 'tsconfig.json'), path.join(REPO_ROOT, 'tsconfig.build.json')].sort();
  for (const f of inputs) {
    h.update(path.relative(REPO_ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  h.update(String((JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', 'typescript', 'package.json'), 'utf8')) as { version: string }).version));
  return h.digest('hex').slice(0, 16);
}

function prune(keep: string): void {
  try {
    const dirs = readdirSync(BUILD_ROOT)
      .map((name) => path.join(BUILD_ROOT, name))
      .filter((p) => p !== keep)
      .map((p) => ({ p, t: statSync(p).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { p } of dirs.slice(KEEP_BUILDS - 1)) rmSync(p, { recursive: true, force: true });
  } catch {
    // a concurrent run may be pruning too
  }
}

function tsc(outDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(REPO_ROOT, 'tsconfig.build.json'), '--outDir', outDir],
      { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`npm run build (tsc -p tsconfig.build.json) failed:\n${stdout}${stderr}`)) : resolve()),
    );
  });
}

/** Builds the service (or finds this very build from an earlier run). */
export async function prepareService(log: (m: string) => void): Promise<ServiceBuild> {
  const mode = serviceMode();
  if (mode === 'tsx') {
    const entry = process.env.BENCH_SERVICE_ENTRY ?? 'src/main.ts';
    return { mode, describe: `tsx: node --import tsx ${entry}, NODE_ENV=production (BENCH_SERVICE=tsx)` };
  }
  const hash = sourceHash();
  const dir = path.join(BUILD_ROOT, hash);
  const entry = path.join(dir, 'main.js');
  const rel = path.relative(REPO_ROOT, dir);
  const started = performance.now();
  let cached = existsSync(path.join(dir, '.complete'));
  if (!cached) {
    log(`building the service: tsc -p tsconfig.build.json → ${rel}`);
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    try {
      await tsc(tmp);
      writeFileSync(path.join(tmp, '.complete'), `${new Date().toISOString()}\n`);
      try {
        renameSync(tmp, dir);
      } catch (e) {
        // Another run finished the same build first: use theirs.
        if (!existsSync(path.join(dir, '.complete'))) throw e;
        cached = true;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    prune(dir);
  }
  if (!existsSync(entry)) throw new Error(`the build has no ${path.relative(REPO_ROOT, entry)}: has tsconfig.build.json's rootDir or outDir changed?`);
  const buildSeconds = (performance.now() - started) / 1000;
  return {
    mode,
    entry,
    cached,
    buildSeconds,
    describe: `compiled: npm run build output (tsc -p tsconfig.build.json → ${rel}, ${cached ? 'same sources as an earlier run, reused' : `built in ${buildSeconds.toFixed(0)} s`}), node ${[...productionNodeFlags(), 'main.js'].join(' ')}, NODE_ENV=production`,
  };
}
