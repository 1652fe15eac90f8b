// `npm run bench:compare -- <commit> [--pairs N] [--quick] [scenario ...]` (issue 50, item 4)
//
// The hot rows (by default the scenarios append, write and reply) of this checkout against another commit,
// alternately: the other commit is checked out in a worktree of its own under the system's temp folder (kept for
// the next comparison, `git worktree remove` to drop it), and each pair runs `npm run bench -- <scenarios>` once in
// each checkout, the first of the pair alternating (this, other; then other, this; …) so that a machine warming up
// or getting busier weighs on both sides alike. Prints each row's ratio per run and the ratio of medians, this
// checkout over the other. A change to the write path lands with these pairs (docs/performance.md).
//
// The other checkout uses this one's node_modules when its package.json and package-lock.json are the same, and the
// same scratch Postgres (bench/.data); otherwise it installs its own (`npm ci`) and keeps its own scratch folder.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { git, otherCheckout } from './lib/checkout.js';
import { REPO_ROOT } from './lib/child.js';
import { median } from './lib/stats.js';

const USAGE = `usage: npm run bench:compare -- <commit> [--pairs N] [--quick] [scenario ...]
  <commit>     what to compare this checkout with (any name git knows: a hash, a branch, HEAD~3)
  --pairs N    runs per side, alternating which goes first (default 3)
  --quick      each run as npm run bench -- --quick (a smoke of the command, not figures)
  scenario     the bench's scenarios to run (default: append write reply)`;

interface Row {
  scenario: string;
  ratio: number | null;
  status: string;
}

/** One `npm run bench` in `cwd`; its rows. */
async function runBench(cwd: string, label: string, scenarios: string[], quick: boolean, env: NodeJS.ProcessEnv, outDir: string, n: number): Promise<Row[]> {
  const out = path.join(outDir, `${label}-${n}.json`);
  const args = ['--import', 'tsx', 'bench/run.ts', ...scenarios, ...(quick ? ['--quick'] : []), '--out', out];
  console.error(`compare: run ${n} of ${label} (${cwd}): node ${args.join(' ')}`);
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env, BENCH_RESULTS_DIR: outDir }, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  if (!existsSync(out)) throw new Error(`the bench in ${cwd} wrote no result (exit ${code})`);
  return (JSON.parse(readFileSync(out, 'utf8')) as { rows: Row[] }).rows;
}

const fmt = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { pairs: { type: 'string' }, quick: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [commit, ...picked] = positionals;
  if (values.help || !commit) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const pairs = Number(values.pairs ?? 3);
  if (!Number.isInteger(pairs) || pairs < 1) {
    console.error(`--pairs takes a whole number ≥ 1\n${USAGE}`);
    return 2;
  }
  const scenarios = picked.length ? picked : ['append', 'write', 'reply'];
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const here = git(['rev-parse', '--short=12', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--', 'src', 'bench']) !== '';
  const other = otherCheckout(sha);
  const dataDir = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(REPO_ROOT, 'bench', '.data'));
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-compare-results-'));
  const sides = {
    this: { cwd: REPO_ROOT, env: { BENCH_DATA_DIR: dataDir } as NodeJS.ProcessEnv, runs: [] as Row[][] },
    other: { cwd: other.dir, env: (other.sharedData ? { BENCH_DATA_DIR: dataDir } : {}) as NodeJS.ProcessEnv, runs: [] as Row[][] },
  };
  for (let p = 1; p <= pairs; p++) {
    const order: (keyof typeof sides)[] = p % 2 ? ['this', 'other'] : ['other', 'this'];
    for (const side of order) sides[side].runs.push(await runBench(sides[side].cwd, side, scenarios, values.quick === true, sides[side].env, outDir, p));
  }

  const names = [...new Set([...sides.this.runs, ...sides.other.runs].flat().map((r) => r.scenario))];
  const ratios = (side: keyof typeof sides, name: string) =>
    sides[side].runs.map((rows) => rows.find((r) => r.scenario === name)?.ratio ?? null).filter((x): x is number => x !== null);
  const lines = [
    '',
    `npm run bench:compare (${values.quick ? 'quick' : 'full'}): ${pairs} pair${pairs > 1 ? 's' : ''}, alternating which runs first`,
    `this: ${here}${dirty ? ' + uncommitted changes' : ''} (${REPO_ROOT}); other: ${sha.slice(0, 12)} (${other.dir})`,
    '',
    '| row (ratio to its in-run baseline) | this, per run | other, per run | this ÷ other (medians) |',
    '|---|---|---|---|',
    ...names.map((name) => {
      const a = ratios('this', name);
      const b = ratios('other', name);
      const ma = a.length ? median(a) : null;
      const mb = b.length ? median(b) : null;
      return `| ${name} | ${a.map((x) => fmt(x)).join(', ') || 'n/a'} | ${b.map((x) => fmt(x)).join(', ') || 'n/a'} | ${ma !== null && mb ? fmt(ma / mb) : 'n/a'} |`;
    }),
    '',
    `results of each run: ${outDir}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
