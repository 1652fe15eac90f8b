// `npm run -s cli -- audit verify`: recomputes every workspace's hash chain from
// the log and holds every stored checkpoint against it (docs/audit.md). A
// workspace fails at its first seq that does not hold: an event whose stored
// hash is not SHA-256 of the previous hash and the event as stored (a changed
// byte, a forged hash, two events swapped), a seq missing (a deleted event, or
// the log ends before its head), or a checkpoint that does not verify or names a
// hash the log no longer has at its seq. Reads a page at a time through the
// store port, so it works the same on EventStoreDB and in constant memory.
import { createPublicKey, verify } from 'node:crypto';
import type { Db } from '../../commands/command.js';
import type { EventStore } from '../../eventstore/store.port.js';
import { canonicalReady, chainHash, GENESIS } from '../../platform/crypto/chain.js';
import type { PublicJwk } from '../../platform/crypto/signing.js';
import { checkpointsPage, signedBytes, type CheckpointRow } from './audit-chain.checkpoints.js';
import { recordedKeys } from './audit-chain.keys.js';

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
  failures: ChainFailure[];
}

/** Whether `signature` is `jwk`'s Ed25519 signature over `message`. */
export function signatureHolds(jwk: PublicJwk, message: string, signature: string): boolean {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/** Every workspace with a log, a read-model checkpoint or an audit checkpoint. */
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
  keys: Map<string, PublicJwk>,
  progress: (events: number) => void,
): Promise<{ failure: ChainFailure | null; events: number; checkpoints: number }> {
  const fail = (seq: number, reason: string) => ({ workspace_id: tenantId, seq, reason });
  const failures: ChainFailure[] = [];
  // Checkpoints first: their signatures, then (during the walk) their hashes against the log's.
  const checkpoints = await allCheckpoints(db, tenantId);
  const bySeq = new Map<number, CheckpointRow[]>();
  for (const c of checkpoints) {
    const seq = Number(c.seq);
    const jwk = keys.get(c.kid);
    const message = signedBytes({ tenant_id: c.tenant_id, seq, hash: c.hash, signed_at: c.signed_at.toISOString() });
    if (!jwk) failures.push(fail(seq, `the checkpoint ${c.id} names a key (${c.kid}) that is not recorded`));
    else if (!signatureHolds(jwk, message, c.signature)) failures.push(fail(seq, `the signature of checkpoint ${c.id} does not verify`));
    else bySeq.set(seq, [...(bySeq.get(seq) ?? []), c]);
  }
  const checkAt = (seq: number, hash: string) => {
    for (const c of bySeq.get(seq) ?? []) {
      if (c.hash !== hash) failures.push(fail(seq, `the log's hash at seq ${seq} is not the one checkpoint ${c.id} signed (the log was rewritten)`));
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
    failures.push(fail(at + 1, `a checkpoint was signed at seq ${seq}, but the log ends at seq ${at}: events were deleted`));
  }
  failures.sort((a, b) => a.seq - b.seq);
  return { failure: failures[0] ?? null, events, checkpoints: checkpoints.length };
}

/** Verifies every workspace (or those named); `progress(done)` after each page read. */
export async function verifyChains(
  deps: { db: Db; store: EventStore },
  opts: { workspaces?: string[]; progress?: (eventsDone: number) => void } = {},
): Promise<VerifyReport> {
  await canonicalReady;
  const keys = await recordedKeys(deps.db);
  const tenants = opts.workspaces ?? (await workspaces(deps.db));
  const report: VerifyReport = { verified: true, workspaces: tenants.length, events: 0, checkpoints: 0, failures: [] };
  let done = 0;
  for (const tenantId of tenants) {
    const r = await verifyWorkspace(deps.db, deps.store, tenantId, keys, (n) => opts.progress?.((done += n)));
    report.events += r.events;
    report.checkpoints += r.checkpoints;
    if (r.failure) report.failures.push(r.failure);
  }
  report.verified = report.failures.length === 0;
  return report;
}
