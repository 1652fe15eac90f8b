// Another commit of this repository, checked out beside this one for the bench's comparisons
// (bench/compare.ts, bench/interleave.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './child.js';

export const git = (args: string[], cwd = REPO_ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/**
 * A worktree at `sha` under the temp folder, ready to run the bench (kept for the next comparison; `git worktree
 * remove` drops it). It uses this checkout's node_modules when its package.json and package-lock.json are the same
 * (`sharedData`: it may then share this checkout's scratch Postgres too); otherwise it installs its own (`npm ci`).
 */
export function otherCheckout(sha: string): { dir: string; sharedData: boolean } {
  const dir = path.join(os.tmpdir(), `cs-bench-compare-${sha.slice(0, 12)}`);
  // Another clone of the repository on this machine (a CI run's) may have left its own worktree at that path, whose
  // node_modules link points into that clone: it is not ours to use. Dropped and checked out again.
  const ours = `gitdir: ${path.join(git(['rev-parse', '--absolute-git-dir']), 'worktrees')}/`;
  if (existsSync(path.join(dir, '.git')) && !readFileSync(path.join(dir, '.git'), 'utf8').startsWith(ours)) {
    console.error(`compare: ${dir} is another clone's worktree; checking it out again`);
    rmSync(dir, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
  if (!existsSync(path.join(dir, 'package.json'))) {
    console.error(`compare: checking out ${sha.slice(0, 12)} in ${dir}`);
    git(['worktree', 'add', '--detach', dir, sha]);
  }
  let sameDeps = true;
  try {
    git(['diff', '--quiet', sha, 'HEAD', '--', 'package.json', 'package-lock.json']);
  } catch {
    sameDeps = false;
  }
  if (!existsSync(path.join(dir, 'node_modules'))) {
    if (sameDeps) symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    else {
      console.error(`compare: ${sha.slice(0, 12)} has other dependencies: npm ci in ${dir}`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    }
  }
  return { dir, sharedData: sameDeps };
}
