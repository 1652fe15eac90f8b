// CPU time (user + system) of processes from /proc, to say where a scenario's
// CPU went: the service, Postgres (every `postgres` process), a baseline.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticks: number | null = null;
function clockTicks(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** utime + stime of one process in seconds, or null when it cannot be read. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return null;
  }
}

let postmaster: number | null = null;

/** Counts only this cluster's processes (the postmaster and its children); otherwise every `postgres` process. */
export function setPostmaster(pid: number | null): void {
  postmaster = pid;
}

/** Whose Postgres CPU the meters count: the bench's own cluster, or (DATABASE_URL) every postgres process here. */
export const postgresScope = (): 'cluster' | 'machine' => (postmaster === null ? 'machine' : 'cluster');

function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** CPU seconds of every process named `postgres` (server, backends, background workers), by pid. */
export function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (readFileSync(`/proc/${e}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const pid = Number(e);
    if (postmaster !== null && pid !== postmaster && parentOf(pid) !== postmaster) continue;
    const s = cpuSeconds(pid);
    if (s !== null) out.set(pid, s);
  }
  return out;
}

export interface CpuFigures {
  serviceMs: number | null;
  postgresMs: number | null;
  /** the EventStoreDB server's CPU, when the meter was given its process (the log is there, not in Postgres) */
  eventstoreMs?: number | null;
  wallMs: number;
  perUnit?: { serviceMs: number | null; postgresMs: number | null; eventstoreMs?: number | null };
}

export interface CpuMeter {
  /** CPU milliseconds spent since start (and per unit, when `units` is given) */
  stop(units?: number): CpuFigures;
}

/**
 * Measures a process (the service, a baseline server) and Postgres from now on.
 * Backends come and go (pools open and close them), so Postgres is sampled every
 * 200 ms and each backend counts from its first sighting to its last.
 * Postgres is seen only when it runs on this machine (embedded, or local).
 */
export function cpuMeter(pid: number | null, eventstorePid: number | null = null): CpuMeter {
  const s0 = pid === null ? null : cpuSeconds(pid);
  const e0 = eventstorePid === null ? null : cpuSeconds(eventstorePid);
  const first = postgresCpu();
  const last = new Map(first);
  const sample = () => {
    for (const [p, s] of postgresCpu()) {
      if (!first.has(p)) first.set(p, 0);
      last.set(p, s);
    }
  };
  const timer = setInterval(sample, 200);
  const t0 = performance.now();
  return {
    stop(units) {
      clearInterval(timer);
      sample();
      const s1 = pid === null ? null : cpuSeconds(pid);
      const e1 = eventstorePid === null ? null : cpuSeconds(eventstorePid);
      let pgSeconds = 0;
      for (const [p, s] of last) pgSeconds += s - (first.get(p) ?? 0);
      const serviceMs = s0 !== null && s1 !== null ? (s1 - s0) * 1000 : null;
      const postgresMs = last.size ? pgSeconds * 1000 : null;
      const eventstoreMs = e0 !== null && e1 !== null ? (e1 - e0) * 1000 : null;
      const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
      const per = (x: number | null) => round(x === null || !units ? null : x / units);
      return {
        serviceMs: round(serviceMs),
        postgresMs: round(postgresMs),
        ...(eventstorePid !== null ? { eventstoreMs: round(eventstoreMs) } : {}),
        wallMs: Math.round(performance.now() - t0),
        ...(units
          ? { perUnit: { serviceMs: per(serviceMs), postgresMs: per(postgresMs), ...(eventstorePid !== null ? { eventstoreMs: per(eventstoreMs) } : {}) } }
          : {}),
      };
    },
  };
}
