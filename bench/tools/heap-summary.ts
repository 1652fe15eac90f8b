// Summarises an allocation profile written by bench/tools/heap-sampling.mjs: bytes allocated per request (given
// how many the service answered), by function (self) and by this repository's functions (what they and their
// callees allocated).
//   node --import tsx bench/tools/heap-summary.ts <alloc-<pid>.heapprofile> <requests> [top=30]
import { readFileSync } from 'node:fs';
import { shortUrl as short } from './cpuprofile.js';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: Node[];
}
interface Profile {
  head: Node;
  samples: { size: number; nodeId: number }[];
}

const [file, requestsArg, topArg] = process.argv.slice(2);
const requests = Number(requestsArg);
const top = Number(topArg ?? 30);
if (!file || !(requests > 0)) {
  console.error('usage: node --import tsx bench/tools/heap-summary.ts <alloc-<pid>.heapprofile> <requests> [top]');
  process.exit(2);
}
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const sampled = new Map<number, number>();
for (const s of p.samples) sampled.set(s.nodeId, (sampled.get(s.nodeId) ?? 0) + s.size);
const self = new Map<string, number>();
const ours = new Map<string, number>();
let total = 0;
// Iterative, so that a deep stack in the profile cannot overflow ours.
const pending: { node: Node; stack: string[] }[] = [{ node: p.head, stack: [] }];
while (pending.length > 0) {
  const { node, stack } = pending.pop()!;
  const f = node.callFrame;
  const key = `${f.functionName || '(anonymous)'}  ${short(f.url)}:${f.lineNumber + 1}`;
  const size = sampled.get(node.id) ?? 0;
  total += size;
  self.set(key, (self.get(key) ?? 0) + size);
  const mine = !f.url.includes('node_modules') && (f.url.includes('/src/') || f.url.includes('/.build/'));
  const next = mine && !stack.includes(key) ? [...stack, key] : stack;
  for (const k of next) ours.set(k, (ours.get(k) ?? 0) + size);
  for (const c of node.children ?? []) pending.push({ node: c, stack: next });
}
const kb = (bytes: number) => `${(bytes / requests / 1024).toFixed(1).padStart(7)} KiB`;
console.log(`${file}\n${(total / 1024 / 1024).toFixed(0)} MiB sampled, ${kb(total)} a request over ${requests} requests\n\nby function (self):`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(v)}  ${k}`);
console.log("\nthis repository's functions (with what they call):");
for (const [k, v] of [...ours].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${kb(v)}  ${k}`);
