// The service's sources transpiled once per run, for the child processes the
// tests start (the service, the CLI, the offline verifier). Run through tsx,
// each child transpiles and loads the module graph itself: about 3.4 s of CPU
// to load the service against 1.4 s for the same modules as JavaScript, and the
// suite starts some fifty of them. esbuild (what tsx runs underneath, so the
// output is what tsx would have run) transpiles file by file, no bundling, into
// .test-build/ at the repository's root: at the depth of src/ and dist/, so
// what a module finds relative to itself (../package.json) it finds there too.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const CHILD_BUILD_DIR = path.join(REPO_ROOT, '.test-build');

/** Transpiles src/ into CHILD_BUILD_DIR (a fraction of a second); children run from it once it is named in TEST_CHILD_BUILD. */
export async function buildForChildren(): Promise<string> {
  const src = path.join(REPO_ROOT, 'src');
  const entryPoints = (await readdir(src, { recursive: true })).filter((f) => f.endsWith('.ts')).map((f) => path.join(src, f));
  await build({
    entryPoints,
    outdir: CHILD_BUILD_DIR,
    outbase: src,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    // A child's stack trace names the TypeScript line (the children run with --enable-source-maps).
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return CHILD_BUILD_DIR;
}
