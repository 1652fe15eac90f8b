// What the scale-out run checks once the load has stopped and the worker has
// drained: acknowledged writes in the log exactly once, gapless seqs, every due
// webhook delivery received, no delivery stuck, no 5xx that was not in flight
// at a fault and then cleared by a retry with the same Idempotency-Key, no 500
// at all (a database that went away is a 503), and writes flowing again within
// WRITES_BACK_WITHIN_MS of Postgres coming back. The limits are the same on
// every machine: fault windows are measured, not estimated.
import type { Knex } from 'knex';
import { eventCatalogue, personalObjects } from '../../src/capabilities/index.js';
import { Forgettable } from '../../src/eventstore/forgettable.js';
import { createSealer } from '../../src/platform/crypto/seal.js';
import type { RequestRecord } from './load.js';
import type { LogView } from './log-view.js';
import type { WebhookReceiver } from './receiver.js';

export interface Fault {
  /**
   * a service process SIGKILLed, Postgres restarted, or (npm run failover) the primary lost and another promoted,
   * or (npm run failover -- --eventstoredb) the EventStoreDB cluster's leader lost and another elected
   */
  kind: 'kill' | 'pg-restart' | 'failover';
  target: string;
  role: 'api' | 'worker' | 'postgres' | 'eventstore';
  /** when the fault began (SIGKILL sent; for Postgres, the stop issued or the primary killed; for EventStoreDB, the leader killed) */
  at: number;
  /** when the process was back; for Postgres and EventStoreDB, when every API process answered ready again */
  readyAt: number;
}

/** After Postgres accepts connections again, a write must succeed within this. */
export const WRITES_BACK_WITHIN_MS = 10_000;

/** Instants of the run the checks measure against. */
export interface Timeline {
  /** the run's start: violations print offsets from it */
  t0: number;
  /** when Postgres accepted connections again after its restart (null: no restart) */
  pgBack: number | null;
  loadStart: number;
  /** when the last new request could start (writes parked on a held key may finish later) */
  loadEnd: number;
}

export interface Figures {
  events: number;
  requests: number;
  byKind: Record<string, number>;
  writes: number;
  acknowledgedWrites: number;
  replayedAnswers: number;
  attempts: number;
  failedAttempts5xx: number;
  connectionErrors: number;
  inFlightConflicts: number;
  /** attempts answered 409 concurrent_modification (EventStoreDB: retried with the same key, which was not stored) */
  concurrentModification: number;
  retriedRequests: number;
  /** requests that met a 5xx or a cut connection and then got a 2xx by retrying */
  recoveredRequests: number;
  /** of those, writes that carried an Idempotency-Key (the rest are inbound posts, deduplicated by message id, and reads) */
  recoveredWithKey: number;
  /** acknowledged writes whose events were committed by an earlier attempt whose answer was lost, answered again from the log */
  answeredFromEarlierAttempt: number;
  unexplainedFailures: number;
  answers500: number;
  answers503: number;
  /** the longest time, during the load, between two writes answered 2xx, and where it began (offset from the start) */
  longestWriteStall: { ms: number; at: string };
  /** from Postgres accepting connections again to the first write answered 2xx after it (null: no restart) */
  writesResumedAfterPgMs: number | null;
  /** from the last write answered 2xx before the Postgres stop was issued to the first after it was back */
  pgWriteStallMs: number | null;
  expectedDeliveries: number;
  deliveriesReceived: number;
  deliveriesAnswered500: number;
  distinctSeqsDelivered: number;
  losses: number;
  duplicates: number;
  /** acknowledged writes whose text is not in the log */
  acknowledgedLost: number;
  /** acknowledged writes whose text is in the log more than once */
  acknowledgedDuplicated: number;
  deliveryStates: Record<string, number>;
}

interface EventRow {
  seq: number;
  created_at: Date;
  type: string;
  aggregate_id: string;
  payload: { body?: string; part_id?: string };
}

/** A failed attempt explained by a fault: in flight at an API kill, or during the Postgres restart. */
export function explainedBy(faults: Fault[], a: { start: number; end: number }): Fault | null {
  for (const f of faults) {
    if (f.role === 'api' && a.start <= f.at + 500 && a.end >= f.at - 50) return f;
    // From the stop issued to every API process ready again, both measured: no allowance either side.
    if ((f.role === 'postgres' || f.role === 'eventstore') && a.start <= f.readyAt && a.end >= f.at) return f;
  }
  return null;
}

export async function verify(
  db: Knex,
  /** where the service keeps its log: it is read there, as stored */
  log: LogView,
  tenant: string,
  records: RequestRecord[],
  receiver: WebhookReceiver,
  endpointSeq: number,
  faults: Fault[],
  /** the services' SERVICE_SECRETS_KEY: message bodies are sealed in the log (personal data), opened here */
  secretsKey: string,
  time: Timeline,
): Promise<{ figures: Figures; violations: string[] }> {
  const off = (ms: number) => `+${((ms - time.t0) / 1000).toFixed(3)}s`;
  const violations: string[] = [];
  const v = (m: string) => {
    if (violations.length < 200) violations.push(m);
  };

  // ---- the log: gapless, heads and read-model checkpoint at the end ----
  const forgettable = new Forgettable(eventCatalogue(), createSealer({ data_key: secretsKey }), personalObjects());
  const stored = await log.events(tenant);
  const events = (await forgettable.open(db, stored as never[])) as EventRow[];
  const n = events.length;
  events.forEach((e, i) => {
    if (Number(e.seq) !== i + 1) v(`seq gap or duplicate: position ${i + 1} holds seq ${e.seq}`);
  });
  const head = await log.head(tenant);
  if (head !== n) v(`the store's head is ${head}, the log holds ${n} events`);
  const projected = Number((await db('projection_checkpoints').where({ tenant_id: tenant }).first('last_seq'))?.last_seq ?? -1);
  if (projected !== n) v(`projection checkpoint is ${projected}, the log holds ${n} events`);

  const markerCount = new Map<string, number>();
  const markerAt = new Map<string, number>();
  const conversationsCreated = new Map<string, number>();
  const partIds = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'conversation.created') conversationsCreated.set(e.aggregate_id, (conversationsCreated.get(e.aggregate_id) ?? 0) + 1);
    if (e.type === 'conversation_part.created') {
      if (typeof e.payload.body === 'string') {
        markerCount.set(e.payload.body, (markerCount.get(e.payload.body) ?? 0) + 1);
        markerAt.set(e.payload.body, new Date(e.created_at).getTime());
      }
      if (e.payload.part_id) partIds.set(e.payload.part_id, (partIds.get(e.payload.part_id) ?? 0) + 1);
    }
  }
  for (const [m, c] of markerCount) if (c > 1 && m.includes(':c')) v(`write "${m}" is in the log ${c} times`);

  // ---- every acknowledged write exactly once ----
  const convRows = new Set<string>((await db('conversations').where({ tenant_id: tenant }).pluck('id')) as string[]);
  const partRows = new Set<string>((await db('conversation_parts').where({ tenant_id: tenant }).pluck('id')) as string[]);
  if (convRows.size !== conversationsCreated.size) v(`conversations read model holds ${convRows.size} rows, the log created ${conversationsCreated.size}`);
  if (partRows.size !== partIds.size) v(`conversation_parts read model holds ${partRows.size} rows, the log holds ${partIds.size} parts`);

  let writes = 0;
  let acked = 0;
  let ackedLost = 0;
  let ackedDuplicated = 0;
  let fromEarlier = 0;
  for (const r of records) {
    const isWrite = r.method !== 'GET';
    if (isWrite) writes++;
    const what = `${r.kind} ${r.method} ${r.path}${r.key ? ` (key ${r.key})` : ''}`;
    if (r.final === null) {
      v(
        `${what}: no answer but 5xx/connection errors after ${r.attempts.length} attempts: ${r.attempts
          .slice(-3)
          .map((a) => a.status ?? a.error)
          .join(', ')}`,
      );
      continue;
    }
    const ok = r.final >= 200 && r.final < 300;
    if (!ok) {
      const last = r.attempts.at(-1);
      v(`${what}: answered ${r.final} ${last?.code ?? ''}${last ? ` at ${off(last.start)}..${off(last.end)}` : ''}`);
      continue;
    }
    if (!isWrite) continue;
    acked++;
    // committed before the answered attempt was even sent: an earlier attempt did the work, its answer was lost
    const at = markerAt.get(r.marker!);
    // (and not a stored answer replayed: rebuilt by running it again, see lost-answer.e2e.test.ts)
    if (at !== undefined && !r.replayed && r.attempts.length > 1 && at < r.attempts.at(-1)!.start - 5) fromEarlier++;
    const count = markerCount.get(r.marker!) ?? 0;
    if (count !== 1) v(`${what}: acknowledged, but its text is in the log ${count} times`);
    if (count === 0) ackedLost++;
    if (count > 1) ackedDuplicated++;
    if (r.kind === 'create') {
      const id = r.body?.id;
      if (typeof id !== 'string') v(`${what}: acknowledged ${r.final} without a conversation id: ${JSON.stringify(r.body)?.slice(0, 200)}`);
      else {
        if (conversationsCreated.get(id) !== 1) v(`${what}: conversation ${id} created ${conversationsCreated.get(id) ?? 0} times in the log`);
        if (!convRows.has(id)) v(`${what}: conversation ${id} missing from the read model`);
        if (r.body?.parts?.[0]?.body !== r.marker) v(`${what}: the answer's first part is not the request's text`);
      }
    } else if (r.kind === 'reply') {
      const id = r.body?.id;
      if (typeof id !== 'string') v(`${what}: acknowledged ${r.final} without a part id: ${JSON.stringify(r.body)?.slice(0, 200)}`);
      else {
        if (partIds.get(id) !== 1) v(`${what}: part ${id} is in the log ${partIds.get(id) ?? 0} times`);
        if (!partRows.has(id)) v(`${what}: part ${id} missing from the read model`);
        if (r.body?.body !== r.marker) v(`${what}: the answer's part is not the request's text`);
      }
    } else if (r.kind === 'inbound') {
      if (r.final === 201 && typeof r.body?.part_id === 'string' && partIds.get(r.body.part_id) !== 1)
        v(`${what}: part ${r.body.part_id} is in the log ${partIds.get(r.body.part_id) ?? 0} times`);
    }
  }

  // ---- failed attempts: each in flight at a fault, each request cleared by a retry ----
  let attempts = 0;
  let f5xx = 0;
  let conn = 0;
  let inFlight = 0;
  let concurrentModification = 0;
  let retried = 0;
  let unexplained = 0;
  let answers500 = 0;
  let answers503 = 0;
  let recovered = 0;
  let recoveredWithKey = 0;
  for (const r of records) {
    attempts += r.attempts.length;
    if (r.attempts.length > 1) retried++;
    if (r.attempts.some((a) => a.status === null || a.status >= 500) && r.final !== null && r.final >= 200 && r.final < 300) {
      recovered++;
      if (r.key) recoveredWithKey++;
    }
    for (const a of r.attempts) {
      if (a.status === 409 && a.code === 'idempotency_key_in_flight') inFlight++;
      if (a.status === 409 && a.code === 'concurrent_modification') concurrentModification++;
      if (a.status === 503) answers503++;
      if (a.status === 500) {
        answers500++;
        v(`${r.kind} ${r.method} ${r.path}: 500 ${a.code ?? ''} at ${off(a.start)}..${off(a.end)}: a 500 is a bug, even at a fault`);
      }
      const failed = a.status === null || a.status >= 500;
      if (!failed) continue;
      if (a.status === null) conn++;
      else f5xx++;
      if (!explainedBy(faults, a)) {
        unexplained++;
        v(`${r.kind} ${r.method} ${r.path}: ${a.status ?? a.error} ${a.code ?? ''} at ${off(a.start)}..${off(a.end)} was not in flight at any fault`);
      }
    }
  }

  // ---- write stalls: the longest gap between writes answered 2xx, and writes after Postgres came back ----
  const writeAcks = records
    .filter((r) => r.method !== 'GET')
    .flatMap((r) => r.attempts.filter((a) => a.status !== null && a.status >= 200 && a.status < 300).map((a) => a.end))
    .sort((a, b) => a - b);
  let stall = { ms: 0, at: off(time.loadStart) };
  let prev = time.loadStart;
  for (const at of [...writeAcks.filter((x) => x >= time.loadStart && x <= time.loadEnd), time.loadEnd]) {
    if (at - prev > stall.ms) stall = { ms: at - prev, at: off(prev) };
    prev = at;
  }
  let resumedAfterPg: number | null = null;
  let pgStall: number | null = null;
  const pgFault = faults.find((f) => f.role === 'postgres');
  if (time.pgBack !== null && pgFault) {
    const firstAfter = writeAcks.find((x) => x >= time.pgBack!);
    const lastBefore = writeAcks.filter((x) => x < pgFault.at).at(-1);
    resumedAfterPg = firstAfter === undefined ? null : firstAfter - time.pgBack;
    pgStall = firstAfter === undefined || lastBefore === undefined ? null : firstAfter - lastBefore;
    if (resumedAfterPg === null || resumedAfterPg > WRITES_BACK_WITHIN_MS) {
      v(
        `writes did not flow again within ${WRITES_BACK_WITHIN_MS} ms of Postgres being back (at ${off(time.pgBack)}): ${resumedAfterPg === null ? 'none succeeded after it' : `the first succeeded ${resumedAfterPg} ms after`}`,
      );
    }
  }

  // ---- webhook deliveries ----
  const expected = events.filter((e) => e.seq > endpointSeq).map((e) => Number(e.seq));
  const accepted = receiver.acceptedSeqs(tenant);
  const lost = expected.filter((s) => !accepted.has(s));
  if (lost.length > 0) v(`${lost.length} due deliveries never arrived: seqs ${lost.slice(0, 20).join(', ')}${lost.length > 20 ? ', …' : ''}`);
  const ofTenant = receiver.deliveries.filter((d) => d.tenant === tenant);
  const answered200 = ofTenant.filter((d) => d.status === 200);
  const bytesBySeq = new Map<number, string>();
  for (const d of ofTenant) {
    if (!d.signatureOk) v(`delivery of seq ${d.seq} has a bad signature`);
    if (d.seq === null) continue;
    const prev = bytesBySeq.get(d.seq);
    if (prev !== undefined && prev !== d.raw) v(`seq ${d.seq} was delivered with different bytes`);
    bytesBySeq.set(d.seq, d.raw);
    if (d.seq <= endpointSeq || d.seq > n) v(`seq ${d.seq} delivered but not due (endpoint created at ${endpointSeq}, head ${n})`);
  }
  const strangers = receiver.deliveries.filter((d) => d.tenant !== tenant).length;
  if (strangers > 0) v(`${strangers} deliveries for another tenant or unparseable`);
  for (const d of answered200) {
    const e = d.seq !== null ? events[d.seq - 1] : undefined;
    if (e && JSON.parse(d.raw).type !== e.type) {
      v(`seq ${d.seq} delivered as ${JSON.parse(d.raw).type}, the log says ${e.type}`);
      break;
    }
  }
  const states = (await db('webhook_deliveries').where({ tenant_id: tenant }).groupBy('state').select('state').count({ n: '*' })) as {
    state: string;
    n: number | string;
  }[];
  const deliveryStates = Object.fromEntries(states.map((s) => [s.state, Number(s.n)]));
  const leased = Number(
    ((await db('webhook_deliveries').where({ tenant_id: tenant }).whereNotNull('leased_until').count({ n: '*' })) as { n: string }[])[0]!.n,
  );
  if ((deliveryStates.pending ?? 0) > 0) v(`${deliveryStates.pending} deliveries still pending`);
  if ((deliveryStates.dead ?? 0) > 0) v(`${deliveryStates.dead} deliveries dead`);
  if (leased > 0) v(`${leased} deliveries still leased (in flight)`);
  const rows = Object.values(deliveryStates).reduce((a, b) => a + b, 0);
  if (rows !== expected.length) v(`${rows} delivery rows for ${expected.length} due events`);

  const byKind: Record<string, number> = {};
  for (const r of records) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
  return {
    violations,
    figures: {
      events: n,
      requests: records.length,
      byKind,
      writes,
      acknowledgedWrites: acked,
      replayedAnswers: records.filter((r) => r.replayed).length,
      attempts,
      failedAttempts5xx: f5xx,
      connectionErrors: conn,
      inFlightConflicts: inFlight,
      concurrentModification,
      retriedRequests: retried,
      recoveredRequests: recovered,
      recoveredWithKey,
      answeredFromEarlierAttempt: fromEarlier,
      unexplainedFailures: unexplained,
      answers500,
      answers503,
      longestWriteStall: stall,
      writesResumedAfterPgMs: resumedAfterPg,
      pgWriteStallMs: pgStall,
      expectedDeliveries: expected.length,
      deliveriesReceived: ofTenant.length,
      deliveriesAnswered500: ofTenant.length - answered200.length,
      distinctSeqsDelivered: accepted.size,
      losses: lost.length,
      duplicates: answered200.length - accepted.size,
      acknowledgedLost: ackedLost,
      acknowledgedDuplicated: ackedDuplicated,
      deliveryStates,
    },
  };
}
