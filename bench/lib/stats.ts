// Small numeric helpers shared by the orchestrator and the workers.

export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile over an ascending array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function summarize(values: number[] | Float64Array): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    n: sorted.length,
    mean: round(sorted.length ? sum / sorted.length : NaN),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1]! : NaN),
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** A wall-clock timestamp in milliseconds with sub-millisecond resolution, comparable across processes. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Calls fire(i) for i = 0..count-1 at `rate` per second, on schedule, without awaiting each (a slow one does not
 * delay the next); resolves once all have settled, with the seconds it took.
 */
export async function steady(rate: number, count: number, fire: (i: number) => Promise<void>): Promise<number> {
  const interval = 1000 / rate;
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = t0 + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(fire(i));
  }
  await Promise.all(pending);
  return (performance.now() - t0) / 1000;
}
