// What the main thread ran in its longest tasks (or, TURNS=1, its longest
// stretches without reaching its timers), as bench/tools/stall-watch.mjs found
// them in main-thread CPU time, each with the functions a V8 CPU profile of the same
// process sampled within it (self time, and the leaf's callers), so that a
// stall is named by its code and not only by its length.
//   node --import tsx bench/tools/stall-profile.ts <watch.json> <main-thread.cpuprofile> [stretches=10] [functions=8]
// Both files come from one run: BENCH_SERVICE_NODE_OPTIONS="--cpu-prof --cpu-prof-dir <dir> --import
// ./bench/tools/stall-watch.mjs" STALL_WATCH_OUT=<prefix> npm run bench -- email-hostile. Profile timestamps and the
// watch's are both CLOCK_MONOTONIC microseconds (V8's TimeTicks, process.hrtime). Samples are taken on wall time:
// in a stretch the machine preempted, they still name the code, their sum is not its CPU time.
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Stretch {
  cpuMs: number;
  wallMs: number;
  endUs: number;
  kind?: string;
}
interface Watch {
  tasks: Stretch[];
  top: Stretch[];
}

const [watchFile, profFile] = process.argv.slice(2);
const stretches = Number(process.argv[4] ?? 10);
const functions = Number(process.argv[5] ?? 8);
if (!watchFile || !profFile) {
  console.error('usage: node --import tsx bench/tools/stall-profile.ts <watch.json> <file.cpuprofile> [stretches] [functions]');
  process.exit(2);
}
const watch = JSON.parse(readFileSync(watchFile, 'utf8')) as Watch;
const p = JSON.parse(readFileSync(profFile, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const short = (url: string) => {
  const u = url.replace(/^file:\/\//, '');
  const i = u.lastIndexOf('node_modules/');
  return i >= 0 ? u.slice(i + 13) : u.includes('/src/') ? u.slice(u.indexOf('/src/') + 1) : path.basename(u) || '(native)';
};
const label = (id: number) => {
  const n = byId.get(id)!;
  return `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
};
/** the first caller up the stack that is not the same function (a leaf's context) */
const caller = (id: number) => {
  const own = label(id);
  for (let q = parent.get(id); q !== undefined; q = parent.get(q)) if (label(q) !== own && byId.get(q)!.callFrame.url) return label(q);
  return '';
};

// Sample i ends at startTime + sum(timeDeltas[0..i]).
const times: number[] = [];
let t = p.startTime;
for (const d of p.timeDeltas) times.push((t += d));

for (const s of (process.env.TURNS === '1' ? watch.top : watch.tasks).slice(0, stretches)) {
  const from = s.endUs - s.wallMs * 1000;
  const self = new Map<string, number>();
  let n = 0;
  for (let i = 0; i < p.samples.length; i++) {
    if (times[i]! < from || times[i]! > s.endUs) continue;
    const id = p.samples[i]!;
    const name = byId.get(id)!.callFrame.functionName;
    const k = name.startsWith('(') ? name : `${label(id)}  ← ${caller(id)}`;
    self.set(k, (self.get(k) ?? 0) + 1);
    n++;
  }
  console.log(`\n${s.cpuMs.toFixed(1)} ms CPU in ${s.wallMs.toFixed(1)} ms wall${s.kind ? ` (${s.kind})` : ''}, ending at ${s.endUs} µs: ${n} samples`);
  for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, functions)) console.log(`  ${((c / n) * 100).toFixed(0).padStart(3)}%  ${k}`);
}
