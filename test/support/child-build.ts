// The service's sources transpiled once per run, for the child processes the
// tests start (the service, the CLI, the offline verifier). Run through tsx,
// each child transpiles and loads the module graph itself: about 3.4 s of CPU
// to load the service against 1.4 s for the same modules as JavaScript, and the
// suite starts some fifty of them. esbuild (what tsx runs underneath, so the
// output is what tsx would have run) transpiles file by file, no bundling, into
// .test-build-<pid>/ at the repository's root: at the depth of src/ and dist/, so what a module finds relative to
// itself (../package.json) it finds there too, and bare imports resolve to the repository's node_modules. One per
// run (the mocha process's pid), removed when the run ends, so two runs in one checkout never write each other's.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { alive } from '../../src/platform/db/embedded-postgres.js';
import { REPO_ROOT } from './process.js';

const PREFIX = '.test-build-';

/**
 * Transpiles src/ into this run's folder (a fraction of a second) and returns it; children run from it once it is
 * named in TEST_CHILD_BUILD. Folders of runs that ended without removing theirs (killed) are removed first.
 */
export async function buildForChildren(): Promise<string> {
  for (const e of await readdir(REPO_ROOT)) {
    const pid = e.startsWith(PREFIX) ? Number(e.slice(PREFIX.length)) : NaN;
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) await rm(path.join(REPO_ROOT, e), { recursive: true, force: true });
  }
  const outdir = path.join(REPO_ROOT, `${PREFIX}${process.pid}`);
  const src = path.join(REPO_ROOT, 'src');
  const entryPoints = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => path.join(src, f));
  await build({
    entryPoints,
    outdir,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    // A child's stack trace names the TypeScript line (the children run with --enable-source-maps).
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outdir;
}

/** Removes a folder buildForChildren made. */
export async function removeChildBuild(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
