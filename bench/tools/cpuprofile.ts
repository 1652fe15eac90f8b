// Reading a V8 .cpuprofile (what `--cpu-prof` writes), for profile-summary.ts and profile-diff.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LoadedProfile {
  profile: Profile;
  byId: Map<number, ProfileNode>;
  /** each node's parent */
  parent: Map<number, number>;
  /** µs sampled in each node itself (its self time), within the window asked for */
  self: Map<number, number>;
  /** µs the window covers */
  wallUs: number;
}

/** A profile, its samples counted from `fromS` seconds after it started (0: all) to `toS` (Infinity: the end). */
export function loadProfile(file: string, fromS = 0, toS = Infinity): LoadedProfile {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  const from = fromS * 1e6;
  const to = toS * 1e6;
  // timeDeltas[i] is the time from the previous sample to sample i.
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) continue;
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const wallUs = Math.min(profile.endTime - profile.startTime, to) - Math.min(from, profile.endTime - profile.startTime);
  return { profile, byId, parent, self, wallUs };
}

/**
 * A script's url as a reader knows it: the package path under the last node_modules/, the path from `src/` on, the
 * path inside a compiled build (bench/.build/<hash>/…, which has no src/), or the file's name.
 */
export const shortUrl = (url: string): string => {
  const u = url.replace(/^file:\/\//, '');
  const i = u.lastIndexOf('node_modules/');
  if (i >= 0) return u.slice(i + 13);
  const j = u.indexOf('/src/');
  if (j >= 0) return u.slice(j + 1);
  const k = u.indexOf('/.build/');
  if (k >= 0)
    return u
      .slice(k + 8)
      .split('/')
      .slice(1)
      .join('/');
  return path.basename(u) || '(native)';
};

/** Samples V8 counts as no JavaScript and no native code running: the thread was waiting. */
export const isIdle = (n: ProfileNode): boolean => n.callFrame.functionName === '(idle)';

/** The module a node's code belongs to: a package (scoped ones with their scope), else its file; V8's own entries by name. */
export function moduleOf(n: ProfileNode): string {
  const name = n.callFrame.functionName;
  if (['(idle)', '(garbage collector)', '(program)', '(root)'].includes(name)) return name;
  const s = shortUrl(n.callFrame.url);
  if (!n.callFrame.url.includes('node_modules')) return s;
  return s
    .split('/')
    .slice(0, s.startsWith('@') ? 2 : 1)
    .join('/');
}

/** A function as the summaries name it: its name, file and line. */
export const functionOf = (n: ProfileNode): string =>
  `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

/** How perRequest groups samples: self time by module or by function, or each function's total with its callees. */
export type Grouping = 'module' | 'function' | 'total';

/** The root's key in totals: every busy sample's stack ends there, so its total is the busy time. */
export const ROOT = '(root)  (native):0';

/** µs a request by module, function or function with its callees (see Grouping), idle left out. */
export function perRequest({ byId, parent, self }: LoadedProfile, requests: number, by: Grouping): Map<string, number> {
  const out = new Map<string, number>();
  const add = (k: string, us: number) => out.set(k, (out.get(k) ?? 0) + us / requests);
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    if (isIdle(n)) continue;
    if (by === 'module') add(moduleOf(n), us);
    else if (by === 'function') add(functionOf(n), us);
    else {
      // Each function on the sample's stack once, however deep it recursed.
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const k = functionOf(byId.get(cur)!);
        if (seen.has(k)) continue;
        seen.add(k);
        add(k, us);
      }
    }
  }
  return out;
}
