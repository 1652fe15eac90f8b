// Rows of the result table, how a target is judged, and how the table prints.

export type Target = { kind: 'ratio>='; value: number } | { kind: 'ratio<='; value: number } | { kind: 'ours<='; value: number } | { kind: 'none' };

export type Status = 'pass' | 'fail' | 'info' | 'n/a' | 'error';

export interface Row {
  scenario: string;
  /** what "ours" measures */
  figure: string;
  unit: string;
  ours: number | null;
  /** what the baseline is */
  baselineLabel: string;
  baseline: number | null;
  /** ours / baseline */
  ratio: number | null;
  target: string;
  status: Status;
  note?: string;
  details?: unknown;
}

export function targetText(t: Target, unit: string): string {
  switch (t.kind) {
    case 'ratio>=':
      return `ratio ≥ ${t.value}`;
    case 'ratio<=':
      return `ratio ≤ ${t.value}`;
    case 'ours<=':
      return `≤ ${t.value} ${unit}`;
    case 'none':
      return '—';
  }
}

export function row(r: {
  scenario: string;
  figure: string;
  unit: string;
  ours: number | null;
  baselineLabel: string;
  baseline: number | null;
  target: Target;
  note?: string;
  details?: unknown;
  /** overrides the verdict, e.g. a latency figure with deliveries missing is a failure, not a number */
  status?: Status;
}): Row {
  const ok = (x: number | null): x is number => typeof x === 'number' && Number.isFinite(x);
  const ratio = ok(r.ours) && ok(r.baseline) && r.baseline !== 0 ? r.ours / r.baseline : null;
  let status: Status;
  switch (r.target.kind) {
    case 'ratio>=':
      status = ratio === null ? 'n/a' : ratio >= r.target.value ? 'pass' : 'fail';
      break;
    case 'ratio<=':
      status = ratio === null ? 'n/a' : ratio <= r.target.value ? 'pass' : 'fail';
      break;
    case 'ours<=':
      status = !ok(r.ours) ? 'n/a' : r.ours <= r.target.value ? 'pass' : 'fail';
      break;
    case 'none':
      status = 'info';
  }
  return {
    scenario: r.scenario,
    figure: r.figure,
    unit: r.unit,
    ours: r.ours,
    baselineLabel: r.baselineLabel,
    baseline: r.baseline,
    ratio,
    target: targetText(r.target, r.unit),
    status: r.status ?? status,
    ...(r.note ? { note: r.note } : {}),
    ...(r.details !== undefined ? { details: r.details } : {}),
  };
}

export function unavailable(scenario: string, figure: string, why: string, status: 'n/a' | 'error' = 'n/a'): Row {
  return { scenario, figure, unit: '', ours: null, baselineLabel: '', baseline: null, ratio: null, target: '', status, note: why };
}

function num(x: number | null, unit: string): string {
  if (x === null || !Number.isFinite(x)) return '—';
  if (unit === 'ms') return `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`;
  if (unit === 'MiB') return `${x.toFixed(1)} MiB`;
  return `${Math.round(x).toLocaleString('en-US')} ${unit}`;
}

const ratioText = (r: number | null) => (r === null ? '—' : r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(3));

export function table(rows: Row[]): string {
  const head = ['scenario', 'figure', 'ours', 'baseline', 'ratio', 'target', 'result'];
  const body = rows.map((r) => [
    r.scenario,
    r.figure,
    num(r.ours, r.unit),
    r.baseline === null ? '—' : `${num(r.baseline, r.unit)} (${r.baselineLabel})`,
    ratioText(r.ratio),
    r.target || '—',
    r.status.toUpperCase(),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
