// GET /api/audit/export: a workspace's log as NDJSON an auditor verifies
// offline (docs/audit.md, src/audit-verify.ts). Line 1 says what follows and
// the hash it chains from; then one line per event as stored (personal fields
// sealed) with its `hash`; the last line is a signed checkpoint of the last
// event exported. Every byte is covered: the header by the chain it starts and
// the checkpoint it ends in, the events by their hashes, the checkpoint by its
// signature (so it carries nothing unsigned: no id, no export time). It reads the log a page at a time by seq and yields a page
// only when the response has taken the previous one (sendStream waits for
// 'drain'), so its memory is two pages (the one written, the next one read)
// whatever the length of the log.
import type { EventLine } from '../../eventstore/export-line.js';
import type { EventStore } from '../../eventstore/store.port.js';
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

export async function* exportLines(
  store: EventStore,
  range: { tenantId: string; afterSeq: number; toSeq: number },
  checkpoint: (seq: number, hash: string) => Promise<Checkpoint>,
): AsyncGenerator<string | Buffer> {
  const { tenantId, afterSeq, toSeq } = range;
  const prevHash = afterSeq === 0 ? GENESIS : await hashAt(store, tenantId, afterSeq);
  const header: ExportHeader = { type: 'audit_export', tenant_id: tenantId, after_seq: afterSeq, to_seq: toSeq, prev_hash: prevHash };
  yield `${JSON.stringify(header)}\n`;
  let lastHash = prevHash;
  // Lines as the store makes them (the Postgres store without parsing each event and printing it again: at a
  // million events, that was a third of the export's time).
  const read = (from: number) => (from < toSeq ? store.readTenantLines(tenantId, from, Math.min(EXPORT_PAGE, toSeq - from)) : null);
  let next = read(afterSeq);
  let at = afterSeq;
  while (next) {
    const page = await next;
    if (page.length === 0) throw new Error(`tenant ${tenantId}: the log ends at seq ${at}, before ${toSeq}`);
    const last = page[page.length - 1]!;
    if (!last.hash) throw new Error(`tenant ${tenantId}: the event at seq ${last.seq} carries no chain hash (written with AUDIT_CHAIN=off)`);
    at = last.seq;
    lastHash = last.hash;
    // The next page is read while this one is written (Postgres and this process each busy at once, not in turn);
    // a reader that stops early leaves it unread, its failure unheard.
    next = read(at);
    next?.catch(() => undefined);
    yield pageBytes(page);
  }
  const { id: _id, ...signed } = await checkpoint(toSeq, lastHash);
  yield `${JSON.stringify(signed)}\n`;
}

/**
 * A page of lines as one UTF-8 buffer, each line written where it goes. Joined as one string first, the page was a
 * rope of a thousand lines that the response flattened and encoded again: a third of the export's time at a million
 * events (docs/performance.md).
 */
function pageBytes(page: readonly EventLine[]): Buffer {
  let units = 0;
  for (const e of page) units += e.line.length;
  // UTF-8 takes at most 3 bytes for a UTF-16 unit (a surrogate pair: 4 for 2), and a newline ends each line.
  const buf = Buffer.allocUnsafe(units * 3 + page.length);
  let n = 0;
  for (const e of page) {
    n += buf.write(e.line, n);
    buf[n++] = 0x0a;
  }
  return buf.subarray(0, n);
}
