// Summarises a V8 .cpuprofile (from `npm run bench -- <scenario> --profile`):
// wall time, idle share, and the top functions and files by self time.
//   node --import tsx bench/tools/profile-summary.ts <file.cpuprofile> [top=25]
//   FOCUS=<function> adds the call paths into it; INCLUSIVE=<regexp> adds functions by total time.
import { functionOf, loadProfile, moduleOf, shortUrl as short } from './cpuprofile.js';

const file = process.argv[2];
const top = Number(process.argv[3] ?? 25);
if (!file) {
  console.error('usage: node --import tsx bench/tools/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const { profile: p, byId, parent, self } = loadProfile(file);
const total = (p.endTime - p.startTime) / 1000;
const fn = new Map<string, number>();
const files = new Map<string, number>();
let idle = 0;
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const name = n.callFrame.functionName || '(anonymous)';
  if (name === '(idle)') idle += us;
  const k = functionOf(n);
  fn.set(k, (fn.get(k) ?? 0) + us);
  const f = moduleOf(n);
  files.set(f, (files.get(f) ?? 0) + us);
}
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((us / 1000 / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`${file}\nwall ${total.toFixed(0)} ms, idle ${ms(idle)}, busy ${((1 - idle / 1000 / total) * 100).toFixed(1)}%\n\ntop functions by self time:`);
for (const [k, us] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);
console.log('\nby module / file:');
for (const [k, us] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);

// `FOCUS=<function name>`: the call paths that lead to it, by self time.
const focus = process.env.FOCUS;
if (focus) {
  const paths = new Map<string, number>();
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName !== focus) continue;
    const chain: string[] = [];
    for (let cur = parent.get(id); cur !== undefined && chain.length < Number(process.env.DEPTH ?? 8); cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      chain.push(`${f.functionName || '(anon)'}@${short(f.url)}:${f.lineNumber + 1}`);
    }
    const k = chain.join(' < ');
    paths.set(k, (paths.get(k) ?? 0) + us);
  }
  console.log(`\ncall paths into ${focus}:`);
  for (const [k, us] of [...paths].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)}  ${k}`);
}

// `INCLUSIVE=<regexp>`: functions (matching the regexp, e.g. `src/|\.js:`) by total time, their callees
// included, idle left out. A middleware's total includes whatever it calls next(), so read it as an upper bound.
const inclusive = process.env.INCLUSIVE;
if (inclusive !== undefined) {
  const re = new RegExp(inclusive || '.');
  const totals = new Map<string, number>();
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = functionOf(byId.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      totals.set(k, (totals.get(k) ?? 0) + us);
    }
  }
  console.log(`\nby total time (callees included), matching /${re.source}/:`);
  for (const [k, us] of [...totals]
    .filter(([k]) => re.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(`${ms(us)}  ${k}`);
}
