// `npm run -s cli -- audit verify`: recomputes every workspace's hash chain from
// the log and holds every stored checkpoint against it (docs/audit.md). A
// workspace fails at its first seq that does not hold: an event whose stored
// hash is not SHA-256 of the previous hash and the event as stored (a changed
// byte, a forged hash, two events swapped), a seq missing (a deleted event, or
// the log ends before its head), or a checkpoint that does not verify or names a
// hash the log no longer has at its seq. Reads a page at a time through the
// store port, so it works the same on EventStoreDB and in constant memory.
import type { Db } from '../../commands/command.js';
import type { EventStore } from '../../eventstore/store.port.js';
import { canonicalReady, chainHash, GENESIS } from '../../platform/crypto/chain.js';
import { checkpointDigest, checkpointHolds, checkpointsPage, renderCheckpoint, type CheckpointRow } from './audit-chain.checkpoints.js';
import { recordedKeys } from './audit-chain.keys.js';
import type { Witness } from './audit-chain.witness.js';

const PAGE = 2000;

export interface ChainFailure {
  workspace_id: string;
  /** the first seq that does not hold */
  seq: number;
  reason: string;
}

export interface VerifyReport {
  verified: boolean;
  workspaces: number;
  events: number;
  checkpoints: number;
  /** checkpoints held outside the database (--trusted, the witness) that the log was held against */
  trusted: number;
  /** key rows whose kid is not their key's RFC 7638 thumbprint: no checkpoint naming one verifies */
  refused_keys: { kid: string; reason: string }[];
  failures: ChainFailure[];
}

/** A checkpoint kept outside the database: the log must still have its hash at its seq. */
export interface TrustedCheckpoint {
  tenant_id: string;
  seq: number;
  hash: string;
  /** where it was kept, for the failure's reason (`--trusted line 3`, `the witness`) */
  from: string;
}

/** Every workspace with a log, a read-model checkpoint or an audit checkpoint (and those the trusted checkpoints name). */
async function workspaces(db: Db): Promise<string[]> {
  const res = await db.raw(`SELECT tenant_id FROM event_heads UNION SELECT tenant_id FROM projection_checkpoints
    UNION SELECT DISTINCT tenant_id FROM audit_checkpoints ORDER BY 1`);
  return (res.rows as { tenant_id: string }[]).map((r) => r.tenant_id);
}

async function allCheckpoints(db: Db, tenantId: string): Promise<CheckpointRow[]> {
  const out: CheckpointRow[] = [];
  for (;;) {
    const last = out[out.length - 1];
    const page = await checkpointsPage(db, tenantId, last ? { signed_at: last.signed_at, id: last.id } : null, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

/** The first failure of one workspace, or null; `progress` is told how many events each page held. */
async function verifyWorkspace(
  db: Db,
  store: EventStore,
  tenantId: string,
  keys: Map<string, { x: string; problem: string | null }>,
  trusted: TrustedCheckpoint[],
  progress: (events: number) => void,
): Promise<{ failure: ChainFailure | null; events: number; checkpoints: number }> {
  const fail = (seq: number, reason: string) => ({ workspace_id: tenantId, seq, reason });
  const failures: ChainFailure[] = [];
  // Checkpoints first: their signatures, that each names the one issued before it, then (during the walk) their hashes against the log's.
  const checkpoints = await allCheckpoints(db, tenantId);
  const bySeq = new Map<number, { hash: string; what: string }[]>();
  const expect = (seq: number, hash: string, what: string) => bySeq.set(seq, [...(bySeq.get(seq) ?? []), { hash, what }]);
  let before: string | null = null;
  for (const row of checkpoints) {
    const c = renderCheckpoint(row);
    const key = keys.get(c.kid);
    const digest = checkpointDigest(c);
    if (!key) failures.push(fail(c.seq, `the checkpoint ${c.id} names a key (${c.kid}) that is not recorded`));
    else if (key.problem) failures.push(fail(c.seq, `the checkpoint ${c.id} names a key row that is not the service's: ${key.problem}`));
    else if (!checkpointHolds(c, key.x)) failures.push(fail(c.seq, `the signature of checkpoint ${c.id} does not verify`));
    else if (c.version >= 2 && c.prev_checkpoint !== before) {
      failures.push(
        fail(
          c.seq,
          c.prev_checkpoint === null
            ? `the checkpoint ${c.id} says it is the workspace's first, but checkpoints were issued before it`
            : `the checkpoint ${c.id} names a predecessor (${c.prev_checkpoint}) that is not the checkpoint stored before it: a checkpoint was deleted or replaced`,
        ),
      );
    } else expect(c.seq, c.hash, `checkpoint ${c.id}`);
    before = digest;
  }
  for (const t of trusted) expect(t.seq, t.hash, `the checkpoint kept in ${t.from}`);
  const checkAt = (seq: number, hash: string) => {
    for (const c of bySeq.get(seq) ?? []) {
      if (c.hash !== hash) failures.push(fail(seq, `the log's hash at seq ${seq} is not the one ${c.what} signed (the log was rewritten)`));
    }
  };
  checkAt(0, GENESIS);

  const head = await store.head(tenantId);
  let prev = GENESIS;
  let at = 0;
  let events = 0;
  walk: for (;;) {
    const page = await store.readTenant(tenantId, at, PAGE, { sealed: true });
    if (page.length === 0) break;
    for (const e of page) {
      if (e.seq !== at + 1) {
        failures.push(fail(at + 1, `seq ${at + 1} is missing (the next event is seq ${e.seq}): an event was deleted`));
        break walk;
      }
      if (!e.hash) {
        failures.push(fail(e.seq, 'the event carries no chain hash (written with AUDIT_CHAIN=off, or the hash was removed)'));
        break walk;
      }
      if (chainHash(prev, e) !== e.hash) {
        failures.push(fail(e.seq, 'the stored hash is not SHA-256 of the previous hash and the event as stored: the event was changed, replaced or moved'));
        break walk;
      }
      checkAt(e.seq, e.hash);
      prev = e.hash;
      at = e.seq;
      events++;
    }
    progress(page.length);
  }
  if (failures.length === 0 && at < head) failures.push(fail(at + 1, `the log ends at seq ${at}, but its head is seq ${head}: events were deleted`));
  const beyond = [...bySeq.keys()].filter((s) => s > at);
  if (failures.length === 0 && beyond.length > 0) {
    const seq = Math.min(...beyond);
    failures.push(fail(at + 1, `${bySeq.get(seq)![0]!.what} is at seq ${seq}, but the log ends at seq ${at}: events were deleted`));
  }
  failures.sort((a, b) => a.seq - b.seq);
  return { failure: failures[0] ?? null, events, checkpoints: checkpoints.length };
}

/**
 * Verifies every workspace (or those named); `progress(done)` after each page read. `trusted`: checkpoints kept
 * outside the database (`--trusted`); `witness`: the service's witness folder (AUDIT_WITNESS_DIR), whose
 * checkpoints are held against the log the same way: neither can be changed by whoever writes the database.
 */
export async function verifyChains(
  deps: { db: Db; store: EventStore },
  opts: { workspaces?: string[]; progress?: (eventsDone: number) => void; trusted?: TrustedCheckpoint[]; witness?: Witness | null } = {},
): Promise<VerifyReport> {
  await canonicalReady;
  const keys = await recordedKeys(deps.db);
  const kept = [...(opts.trusted ?? [])];
  if (opts.witness) {
    for (const tenantId of opts.workspaces ?? (await opts.witness.tenants())) {
      for (const c of await opts.witness.all(tenantId)) kept.push({ tenant_id: c.tenant_id, seq: c.seq, hash: c.hash, from: 'the witness' });
    }
  }
  const tenants = opts.workspaces ?? [...new Set([...(await workspaces(deps.db)), ...kept.map((t) => t.tenant_id)])].sort();
  const refused = [...keys].filter(([, k]) => k.problem !== null).map(([kid, k]) => ({ kid, reason: k.problem! }));
  const report: VerifyReport = {
    verified: true,
    workspaces: tenants.length,
    events: 0,
    checkpoints: 0,
    trusted: 0,
    refused_keys: refused,
    failures: [],
  };
  let done = 0;
  for (const tenantId of tenants) {
    const mine = kept.filter((t) => t.tenant_id === tenantId);
    report.trusted += mine.length;
    const r = await verifyWorkspace(deps.db, deps.store, tenantId, keys, mine, (n) => opts.progress?.((done += n)));
    report.events += r.events;
    report.checkpoints += r.checkpoints;
    if (r.failure) report.failures.push(r.failure);
  }
  report.verified = report.failures.length === 0 && refused.length === 0;
  return report;
}
