// Two services' CPU profiles side by side, per request: where one spends more than the other.
//   node --import tsx bench/tools/profile-diff.ts <this.cpuprofile> <requests> <other.cpuprofile> <requests>
//     [--by module|function|total] [--from S] [--to S] [--top N]
// Each profile's time (idle left out) is divided by the requests it served in the window, and the rows are sorted
// by the difference, this − other, in µs a request. `--by module` (the default) sums self time by package or
// source file; `function` by function; `total` by function with its callees (a middleware's total includes what it
// calls next(): read it as an upper bound). `--from`/`--to` keep the samples between those seconds of each
// profile (e.g. leave out the start-up's compiling). Take the requests from the bench's notes for the rows the
// profiles cover (`cpu per write: N writes`), the same window for both.
//
// What it cannot tell: a sample is wall time on the thread, so on a loaded machine a function preempted while it
// ran (a socket write that woke Postgres on the other core) looks long. Read a native function's row (`writev`)
// beside the thread's CPU time (/proc/<pid>/task/<tid>/stat), not alone.
import { parseArgs } from 'node:util';
import { loadProfile, perRequest, ROOT, type Grouping } from './cpuprofile.js';

const { values: o, positionals } = parseArgs({
  allowPositionals: true,
  options: { by: { type: 'string', default: 'module' }, from: { type: 'string' }, to: { type: 'string' }, top: { type: 'string', default: '30' } },
});
const [thisFile, thisRequests, otherFile, otherRequests] = positionals;
const by = o.by as Grouping;
if (!thisFile || !otherFile || !(Number(thisRequests) > 0) || !(Number(otherRequests) > 0) || !['module', 'function', 'total'].includes(by)) {
  console.error(
    'usage: node --import tsx bench/tools/profile-diff.ts <this.cpuprofile> <requests> <other.cpuprofile> <requests> [--by module|function|total] [--from S] [--to S] [--top N]',
  );
  process.exit(2);
}

const window = [Number(o.from ?? 0), o.to === undefined ? Infinity : Number(o.to)] as const;
const a = perRequest(loadProfile(thisFile, ...window), Number(thisRequests), by);
const b = perRequest(loadProfile(otherFile, ...window), Number(otherRequests), by);
// Self times add up to the busy time; totals include the root's, which is it.
const busy = (m: Map<string, number>) => (by === 'total' ? (m.get(ROOT) ?? 0) : [...m.values()].reduce((s, v) => s + v, 0));
const us = (v: number) => v.toFixed(1).padStart(9);
console.log(`µs a request (idle left out)${by === 'total' ? ', callees included' : ''}; this ${thisFile}, other ${otherFile}`);
console.log(`${'this'.padStart(9)}${'other'.padStart(9)}${'this−other'.padStart(11)}  ${by}`);
console.log(`${us(busy(a))}${us(busy(b))}${us(busy(a) - busy(b)).padStart(11)}  (busy, all)`);
const rows = [...new Set([...a.keys(), ...b.keys()])]
  .map((k) => [k, a.get(k) ?? 0, b.get(k) ?? 0] as const)
  .sort((x, y) => Math.abs(y[1] - y[2]) - Math.abs(x[1] - x[2]));
for (const [k, x, y] of rows.slice(0, Number(o.top))) console.log(`${us(x)}${us(y)}${us(x - y).padStart(11)}  ${k}`);
