// GET /api/audit/export: a workspace's log as NDJSON an auditor verifies
// offline (docs/audit.md, src/audit-verify.ts). Line 1 says what follows and
// the hash it chains from; then one line per event as stored (personal fields
// sealed) with its `hash`; the last line is a signed checkpoint of the last
// event exported. Every byte is covered: the header by the chain it starts and
// the checkpoint it ends in, the events by their hashes, the checkpoint by its
// signature (so it carries nothing unsigned: no id, no export time). It reads the log a page at a time by seq and yields a page
// only when the response has taken the previous one (sendStream waits for
// 'drain'), so its memory is one page whatever the length of the log.
import type { EventStore } from '../../eventstore/store.port.js';
import type { StoredEvent } from '../../eventstore/envelope.js';
import { GENESIS } from '../../platform/crypto/chain.js';
import { hashAt, type Checkpoint } from './audit-chain.checkpoints.js';

/** Events read (and lines written) per page. */
export const EXPORT_PAGE = 1000;

/** The first line of an export. */
export interface ExportHeader {
  type: 'audit_export';
  tenant_id: string;
  /** the lines follow this seq (0: from the first event) */
  after_seq: number;
  /** the last seq exported */
  to_seq: number;
  /** the chain hash of `after_seq`, which the first event line chains from (the genesis value for 0) */
  prev_hash: string;
}

/** An event line: the event as stored, and its chain hash. */
export const eventLine = (e: StoredEvent) =>
  JSON.stringify({
    tenant_id: e.tenant_id,
    seq: e.seq,
    id: e.id,
    type: e.type,
    aggregate_type: e.aggregate_type,
    aggregate_id: e.aggregate_id,
    payload: e.payload,
    metadata: e.metadata,
    created_at: e.created_at,
    hash: e.hash ?? null,
  });

export async function* exportLines(
  store: EventStore,
  range: { tenantId: string; afterSeq: number; toSeq: number },
  checkpoint: (seq: number, hash: string) => Promise<Checkpoint>,
): AsyncGenerator<string> {
  const { tenantId, afterSeq, toSeq } = range;
  const prevHash = afterSeq === 0 ? GENESIS : await hashAt(store, tenantId, afterSeq);
  const header: ExportHeader = { type: 'audit_export', tenant_id: tenantId, after_seq: afterSeq, to_seq: toSeq, prev_hash: prevHash };
  yield `${JSON.stringify(header)}\n`;
  let at = afterSeq;
  let lastHash = prevHash;
  while (at < toSeq) {
    const page = await store.readTenant(tenantId, at, Math.min(EXPORT_PAGE, toSeq - at), { sealed: true });
    if (page.length === 0) throw new Error(`tenant ${tenantId}: the log ends at seq ${at}, before ${toSeq}`);
    let chunk = '';
    for (const e of page) chunk += `${eventLine(e)}\n`;
    yield chunk;
    const last = page[page.length - 1]!;
    if (!last.hash) throw new Error(`tenant ${tenantId}: the event at seq ${last.seq} carries no chain hash (written with AUDIT_CHAIN=off)`);
    at = last.seq;
    lastHash = last.hash;
  }
  const { id: _id, ...signed } = await checkpoint(toSeq, lastHash);
  yield `${JSON.stringify(signed)}\n`;
}
