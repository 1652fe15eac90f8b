// What the failover runs (Patroni's and EventStoreDB's) check beyond the
// scale-out run's checks (scripts/scale-out/verify.ts: every acknowledged write
// in the log exactly once, gapless seqs, every due delivery, no 5xx outside a
// fault window): no Idempotency-Key left in flight, acknowledged writes answered
// again as stored replays, read models equal to a rebuild from the log, and
// each outage measured. settleAndCheck runs them all, in the same order for
// both runs, once the load has stopped; report prints the result.
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Knex } from 'knex';
import { allProjectors } from '../../src/capabilities/index.js';
import { ProjectionEngine } from '../../src/projections/engine.js';
import type { RequestRecord } from '../scale-out/load.js';
import type { LogView } from '../scale-out/log-view.js';
import { serviceEnv, tailFile } from '../scale-out/procs.js';
import type { WebhookReceiver } from '../scale-out/receiver.js';
import { cli, drain, type Shared } from '../scale-out/setup.js';
import { verify, type Fault, type Figures, type Timeline } from '../scale-out/verify.js';

const DRAIN_TIMEOUT_MS = 120_000;
/** acknowledged writes sent again after the run */
const REPLAYS = 150;

/** Keys of the workspace still in flight once everything settled, and acknowledged writes whose key is not completed. */
export async function keysInFlight(db: Knex, tenant: string, records: RequestRecord[]): Promise<string[]> {
  const problems: string[] = [];
  const rows = (await db('idempotency_keys').where({ tenant_id: tenant }).select('key', 'status')) as { key: string; status: string }[];
  const status = new Map(rows.map((r) => [r.key, r.status]));
  for (const r of rows) if (r.status === 'in_flight') problems.push(`Idempotency-Key ${r.key} is left in flight`);
  for (const r of records) {
    if (!r.key || r.final === null || r.final < 200 || r.final >= 300) continue;
    const s = status.get(r.key);
    if (s !== 'completed') problems.push(`${r.kind} ${r.path} (key ${r.key}) was acknowledged ${r.final}, but its key is ${s ?? 'missing'}`);
  }
  return problems;
}

/**
 * Sends acknowledged writes again with their Idempotency-Key and bytes: each
 * must come back as a replay (`Idempotent-Replayed: true`) of the answer the
 * client got. Every write that met a failure on the way first, then others, up
 * to `max`.
 */
export async function replays(base: string, records: RequestRecord[], max: number): Promise<{ checked: number; problems: string[] }> {
  const acked = records.filter((r) => r.key && r.sent && r.final !== null && r.final >= 200 && r.final < 300);
  const crossed = acked.filter((r) => r.attempts.length > 1);
  const rest = acked.filter((r) => r.attempts.length === 1);
  const step = Math.max(1, Math.floor(rest.length / Math.max(1, max - crossed.length)));
  const sample = [...crossed, ...rest.filter((_, i) => i % step === 0)].slice(0, max);
  const problems: string[] = [];
  for (const r of sample) {
    const res = await fetch(base + r.path, {
      method: r.method,
      headers: { ...r.sent!.headers, ...(r.sent!.raw !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: r.sent!.raw,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    const what = `${r.kind} ${r.path} (key ${r.key})`;
    if (res.status !== r.final) problems.push(`${what}: sent again, answered ${res.status} (first ${r.final}): ${text.slice(0, 200)}`);
    else if (res.headers.get('idempotent-replayed') !== 'true') problems.push(`${what}: sent again, not a replay`);
    else if (!isDeepStrictEqual(JSON.parse(text), r.body)) problems.push(`${what}: the replay differs from the first answer`);
  }
  return { checked: sample.length, problems };
}

/** Every read-model table, each row, in primary-key order. */
export async function readModels(db: Knex): Promise<Record<string, unknown[]>> {
  const tables = new ProjectionEngine(allProjectors(), { logInDatabase: true }).tables();
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const pk = await db.raw(
      `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey::int2[])
        WHERE i.indrelid = ?::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
      [t],
    );
    const cols = (pk.rows as { name: string }[]).map((r) => r.name);
    out[t] = await db(t)
      .select('*')
      .orderBy(cols.map((column) => ({ column, order: 'asc' as const })));
  }
  return out;
}

/** The tables whose rows differ between two snapshots (and how many rows each holds). */
export function differences(before: Record<string, unknown[]>, after: Record<string, unknown[]>): string[] {
  const out: string[] = [];
  for (const t of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[t] ?? [];
    const b = after[t] ?? [];
    if (!isDeepStrictEqual(a, b)) {
      const i = a.findIndex((row, k) => !isDeepStrictEqual(row, b[k]));
      out.push(`read model ${t} differs from a rebuild (${a.length} rows, rebuilt ${b.length}; first difference at row ${i < 0 ? a.length : i})`);
    }
  }
  return out;
}

/**
 * Per primary lost: seconds from its kill to the end of the silence that followed it, the first write
 * acknowledged after the longest stretch without one (before the next kill). A write the dying primary's
 * backends still acknowledged in the first moments (they outlive their postmaster briefly; with the stream
 * held, none can be) does not end the outage.
 */
export function outages(records: RequestRecord[], kills: { target: string; at: number }[]): { target: string; seconds: number | null }[] {
  const acks = records
    .filter((r) => r.method !== 'GET')
    .flatMap((r) => r.attempts.filter((a) => a.status !== null && a.status >= 200 && a.status < 300).map((a) => a.end))
    .sort((a, b) => a - b);
  return kills.map((k, i) => {
    const until = kills[i + 1]?.at ?? Infinity;
    let prev = k.at;
    let back: number | null = null;
    let longest = 0;
    for (const at of acks) {
      if (at < k.at || at >= until) continue;
      if (at - prev > longest) {
        longest = at - prev;
        back = at;
      }
      prev = at;
    }
    return { target: k.target, seconds: back === null ? null : Math.round((back - k.at) / 10) / 100 };
  });
}

/**
 * Per kill, the outage as the clients lived it: from the first write that failed (5xx, cut off) or ran longer
 * than `slowMs` after the kill (from when it was sent, or from the kill for one already in flight) to the end of
 * the first write acknowledged that was sent after that: the first the new leader took. Null figures: no write
 * failed or stalled.
 */
export function writeOutages(
  records: RequestRecord[],
  kills: { target: string; at: number }[],
  slowMs: number,
): { target: string; first_failed_s: number | null; first_success_s: number | null; seconds: number | null }[] {
  const writes = records.filter((r) => r.method !== 'GET').flatMap((r) => r.attempts);
  const round = (ms: number) => Math.round(ms / 10) / 100;
  return kills.map((k, i) => {
    const until = kills[i + 1]?.at ?? Infinity;
    let began = Infinity;
    for (const a of writes) {
      if (a.end < k.at || a.start >= until) continue;
      const failed = a.status === null || a.status >= 500;
      const from = Math.max(a.start, k.at);
      if (failed || a.end - from > slowMs) began = Math.min(began, from);
    }
    if (began === Infinity) return { target: k.target, first_failed_s: null, first_success_s: null, seconds: null };
    let back = Infinity;
    for (const a of writes) if (a.start >= began && a.start < until && a.status !== null && a.status >= 200 && a.status < 300) back = Math.min(back, a.end);
    return {
      target: k.target,
      first_failed_s: round(began - k.at),
      first_success_s: back === Infinity ? null : round(back - k.at),
      seconds: back === Infinity ? null : round(back - began),
    };
  });
}

export interface Settled {
  figures: Figures;
  violations: string[];
  keysLeftInFlight: number;
  replaysChecked: number;
  readModelsEqual: boolean;
}

/**
 * Once the load has stopped: lets the worker drain (bounded), then checks everything: verify.ts's checks on the
 * log as the store keeps it, no key left in flight, acknowledged writes replayed as answered, and the read models
 * against a rebuild from the log, as an operator would run it (npm run cli -- rebuild, with the log's settings).
 */
export async function settleAndCheck(o: {
  db: Knex;
  log: LogView;
  tenant: string;
  records: RequestRecord[];
  receiver: WebhookReceiver;
  endpointSeq: number;
  faults: Fault[];
  shared: Shared;
  timeline: Timeline;
  /** the load balancer the load went through */
  base: string;
  tmp: string;
  say: (m: string) => void;
}): Promise<Settled> {
  const drained = await drain(o.db, o.log, o.tenant, o.receiver, o.endpointSeq, DRAIN_TIMEOUT_MS);
  o.say(`drain ${drained.drained ? 'complete' : 'TIMED OUT'} after ${drained.ms} ms: ${drained.state}`);
  const { figures, violations } = await verify(o.db, o.log, o.tenant, o.records, o.receiver, o.endpointSeq, o.faults, o.shared.secretsKey, o.timeline);
  if (!drained.drained) violations.unshift(`the worker did not drain within ${DRAIN_TIMEOUT_MS} ms: ${drained.state}`);
  const inFlight = await keysInFlight(o.db, o.tenant, o.records);
  violations.push(...inFlight);
  const replayed = await replays(o.base, o.records, REPLAYS);
  violations.push(...replayed.problems);
  o.say(`${replayed.checked} acknowledged writes sent again: ${replayed.problems.length} not replayed as answered`);
  const live = await readModels(o.db);
  const rebuilt = await cli(
    ['rebuild'],
    serviceEnv({
      DATABASE_URL: o.shared.databaseUrl,
      SERVICE_SECRETS_KEY: o.shared.secretsKey,
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(o.tmp, 'cli'),
      ...o.log.env,
    }),
  );
  const diff = differences(live, await readModels(o.db));
  violations.push(...diff);
  o.say(`rebuild of ${rebuilt.events} events: read models ${diff.length === 0 ? 'equal' : 'DIFFER'}`);
  return { figures, violations, keysLeftInFlight: inFlight.length, replaysChecked: replayed.checked, readModelsEqual: diff.length === 0 };
}

/**
 * Prints the run's figures and its FAILOVER_RESULT line; with violations, them and the tails of `logs`.
 * Returns the exit code: 1 with violations, 0 without.
 */
export function report(result: Record<string, unknown>, violations: string[], logs: { name: string; file: string }[], ok: string): number {
  console.log('\n=== failover summary ===');
  for (const [k, v] of Object.entries(result)) console.log(`  ${k.padEnd(26)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  console.log(`FAILOVER_RESULT ${JSON.stringify(result)}`);
  if (violations.length > 0) {
    console.log(`\n${violations.length} violation(s):`);
    for (const m of violations.slice(0, 50)) console.log(`  - ${m}`);
    for (const l of logs) console.log(`\n--- ${l.name} log (tail) ---\n${tailFile(l.file, 15)}`);
    return 1;
  }
  console.log(`\nOK: ${ok}`);
  return 0;
}
