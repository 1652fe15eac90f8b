// Does the log still say what the service signed? Before it signs a new
// checkpoint the service recomputes the chain between its previous checkpoint
// and the seq it is about to sign, from the bytes stored, as an auditor holding
// that previous checkpoint would (Certificate Transparency's consistency check,
// Sigstore's clients refusing a checkpoint that does not extend the one they
// kept). A hash recomputed by someone with write access to the database is
// consistent with its neighbours, but not with the hash the service signed:
// without this check the service would sign a rewritten history, or a made-up
// hash at the head, and every later export would verify.
import type { EventStore } from '../../eventstore/store.port.js';
import { chainHash, GENESIS } from '../../platform/crypto/chain.js';
import { chainIncomplete } from './audit-chain.checkpoints.js';

const PAGE = 1000;

/** The hash at the seq asked for, recomputed; or the first seq that does not hold, and why. */
export type Extension = { holds: true; hash: string; events: number } | { holds: false; seq: number; reason: string };
type Failure = Extract<Extension, { holds: false }>;

/**
 * Whether the stored log extends `signed` (a checkpoint the service issued) to `seq`, and the hash of `seq`.
 * The log's hash at the signed seq must still be the signed one (else someone rewrote an event at or before it
 * and recomputed the hashes after); then every event between the two (`seq` may be the earlier: an export may
 * end before the last checkpoint) must hash, from the one before, to what is stored (else an event was changed
 * or a hash made up). Events without a hash are answered 409 audit_chain_incomplete (AUDIT_CHAIN=off), as before.
 */
export async function extension(store: EventStore, tenantId: string, signed: { seq: number; hash: string }, seq: number): Promise<Extension> {
  const head = await store.head(tenantId);
  const hi = Math.max(signed.seq, seq);
  if (head < hi) {
    const what = hi === signed.seq ? `the service signed a checkpoint at seq ${hi}` : `seq ${hi} was asked for`;
    return { holds: false, seq: head + 1, reason: `the log ends at seq ${head}, but ${what}: events were deleted` };
  }
  const atSigned = await stored(store, tenantId, signed.seq);
  if (typeof atSigned !== 'string') return atSigned;
  if (atSigned !== signed.hash) {
    return {
      holds: false,
      seq: signed.seq,
      reason: `the log's hash at seq ${signed.seq} is not the one the service signed there: an event at or before it was rewritten and the later hashes recomputed`,
    };
  }
  if (seq >= signed.seq) return walk(store, tenantId, signed.seq, signed.hash, seq);
  // An earlier seq: its stored hash must lead, event by event, to the signed one.
  const start = await stored(store, tenantId, seq);
  if (typeof start !== 'string') return start;
  const walked = await walk(store, tenantId, seq, start, signed.seq);
  return walked.holds ? { ...walked, hash: start } : walked;
}

/** The stored hash of `seq` (GENESIS for 0), or the failure of a missing event. */
async function stored(store: EventStore, tenantId: string, seq: number): Promise<string | Failure> {
  if (seq === 0) return GENESIS;
  const [e] = await store.readTenant(tenantId, seq - 1, 1, { sealed: true });
  if (!e || e.seq !== seq) return { holds: false, seq, reason: `seq ${seq} is missing: an event was deleted` };
  if (!e.hash) throw chainIncomplete(seq);
  return e.hash;
}

/** Recomputes the hashes of the events after `from` up to `to`, starting from `hash`, against the stored ones. */
async function walk(store: EventStore, tenantId: string, from: number, hash: string, to: number): Promise<Extension> {
  let at = from;
  let prev = hash;
  while (at < to) {
    const page = await store.readTenant(tenantId, at, Math.min(PAGE, to - at), { sealed: true });
    if (page.length === 0) return { holds: false, seq: at + 1, reason: `seq ${at + 1} is missing: the log ends at seq ${at}` };
    for (const e of page) {
      if (e.seq !== at + 1) return { holds: false, seq: at + 1, reason: `seq ${at + 1} is missing (the next event is seq ${e.seq}): an event was deleted` };
      if (!e.hash) throw chainIncomplete(e.seq);
      const computed = chainHash(prev, e);
      if (computed !== e.hash) {
        return {
          holds: false,
          seq: e.seq,
          reason: 'the stored hash is not SHA-256 of the previous hash and the event as stored: the event was changed, or its hash made up',
        };
      }
      prev = computed;
      at = e.seq;
    }
  }
  return { holds: true, hash: prev, events: to - from };
}
