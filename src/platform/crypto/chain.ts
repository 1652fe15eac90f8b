// The hash chain that makes a workspace's log tamper-evident (docs/audit.md).
//
// Every stored event carries `hash` = SHA-256 over the previous event's hash
// (of the same workspace) followed by the RFC 8785 canonical JSON of this event
// as stored: personal fields as their ciphertext, so destroying a data key
// (crypto-shredding) changes no stored byte and never breaks the chain. The
// first event of a workspace chains from GENESIS. The stores compute it while
// they hold the workspace's append lock (Postgres) or append at an expected
// revision (EventStoreDB), so the previous hash is the one of seq - 1.
//
// Kept to node:crypto, `canonicalize` (a well-kept RFC 8785 implementation: the
// reference here) and `safe-stable-stringify` (the same form, faster: below), like
// the offline verifier (src/audit-verify.ts), which repeats these few lines with
// `canonicalize` alone on purpose, so that it depends on nothing of the service. In
// platform, not in eventstore, because the migration that adds the chain (035)
// hashes the events already stored.
import { configure } from 'safe-stable-stringify';
import { sha256Hex } from './hmac.js';

/**
 * RFC 8785 canonical JSON (the `canonicalize` package). That package is an ES module only, with no
 * require() entry: loaded by a dynamic import, so that whatever loads this module through require()
 * (the test fixture under mocha loads the capabilities so) still can. Hashing waits for it: callers
 * `await canonicalReady` before their first use (the stores, the verifier and the signer do).
 */
let canonicalizeFn: ((value: unknown) => string | undefined) | null = null;
export const canonicalReady: Promise<void> = import('canonicalize').then((m) => {
  canonicalizeFn = m.default;
});

/**
 * Every appended event is hashed in this form, so it is on the write path (under the workspace's append lock), and
 * `canonicalize` spends on it (a Set, sorted key arrays and joined strings at every level, each string scanned for
 * lone surrogates in JavaScript) about 15 % of all the service allocates a write (issue 50: a sampling heap profile
 * of the bench's write row) and 37 µs an event where this takes 12. For JSON values both write the same bytes:
 * keys sorted by UTF-16 code units, numbers and strings as JSON.stringify writes them (RFC 8785 §3.2.2 and §3.2.3
 * say so), undefined members left out; test/audit-chain/canonical-json.unit.test.ts compares them on generated
 * values. Where they differ, `canonicalize` decides: a lone surrogate, which RFC 8785 refuses and JSON.stringify
 * writes as an escape (an output with `\ud8`–`\udf` in it goes to `canonicalize`, which throws, or agrees when the
 * text only spelt the escape). Non-finite numbers are written null, as JSON.stringify stored them.
 */
const stable = configure({ deterministic: true, bigint: false, circularValue: Error, strict: false });
const MAYBE_LONE_SURROGATE = /\\u[dD][89a-fA-F]/;

/** The RFC 8785 canonical JSON of a value (after `canonicalReady`); a non-finite number as null. */
export function canonicalJson(value: unknown): string {
  const form = stable(value);
  if (form === undefined) throw new Error('the value has no JSON form');
  if (!MAYBE_LONE_SURROGATE.test(form)) return form;
  if (!canonicalizeFn) throw new Error('canonicalize is not loaded yet: await canonicalReady first');
  return canonicalizeFn(JSON.parse(form)) ?? form;
}

/** What the first event of every workspace chains from: 64 zeros (hex of 32 zero bytes). */
export const GENESIS = '0'.repeat(64);

/** A stored event's fields that the chain covers: the event as stored, without its own hash. */
export interface ChainedFields {
  tenant_id: string;
  seq: number;
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  /** as stored: personal fields sealed */
  payload: Record<string, unknown>;
  metadata: object;
  /** ISO 8601, UTC, milliseconds (`2026-01-01T00:00:00.000Z`): what the stores read back */
  created_at: string;
}

/** The fields the chain covers, in this order (the audit export's lines carry them so, its hash after). */
export const chainedFields = (e: ChainedFields): ChainedFields => ({
  tenant_id: e.tenant_id,
  seq: e.seq,
  id: e.id,
  type: e.type,
  aggregate_type: e.aggregate_type,
  aggregate_id: e.aggregate_id,
  payload: e.payload,
  metadata: e.metadata,
  created_at: e.created_at,
});

/**
 * The RFC 8785 canonical JSON of an event as stored. Its metadata is hashed whole, as read and as exported: no
 * member is left out. (EventStoreDB carries the chain hash in the metadata it stores, and its adapter takes it
 * out on every read, so no reader ever sees a `metadata.hash`; one found in Postgres was written by someone
 * else, and the chain covers it like any other byte.)
 */
export function canonicalEvent(e: ChainedFields): string {
  // A value JSON has no form for (a non-finite number) is hashed as JSON.stringify stored it (null): canonicalJson's.
  return canonicalJson(chainedFields(e));
}

/** hex(SHA-256(previous hash as 64 ASCII hex digits ‖ canonical JSON as UTF-8)). */
export function chainHash(previous: string, e: ChainedFields): string {
  // One string, one call: the previous hash is 64 ASCII hex digits, the same bytes in UTF-8 as in latin1.
  return sha256Hex(previous + canonicalEvent(e));
}

/** The hashes of consecutive events chained from `previous` (the hash of the event before the first). */
export function chainAll(previous: string, events: readonly ChainedFields[]): string[] {
  const out: string[] = [];
  let prev = previous;
  for (const e of events) out.push((prev = chainHash(prev, e)));
  return out;
}

/** A 64-hex-digit chain hash (the shape every stored `hash` has). */
export const isChainHash = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);

/**
 * What a store remembers of its workspaces' chain heads between transactions:
 * the last hash it saw committed, by seq. An entry is a fact about a committed
 * seq (never undone), so it is right whenever its seq is the one an append
 * follows; when it is not (another process appended since, or a restart), the
 * store reads the hash of that seq from the log.
 */
export class ChainHeads {
  private readonly heads = new Map<string, { seq: number; hash: string }>();
  constructor(private readonly max = 10_000) {}

  /** The hash of `seq` in `tenantId`'s log, when remembered (GENESIS for seq 0). */
  at(tenantId: string, seq: number): string | undefined {
    if (seq === 0) return GENESIS;
    const h = this.heads.get(tenantId);
    return h && h.seq === seq ? h.hash : undefined;
  }

  /** The last committed head remembered for `tenantId` (undefined when none is). */
  latest(tenantId: string): { seq: number; hash: string } | undefined {
    return this.heads.get(tenantId);
  }

  /** Forgets `tenantId`'s head (an append found it was not what was remembered). */
  forget(tenantId: string): void {
    this.heads.delete(tenantId);
  }

  /** Remembers a committed head (only moving forward). */
  committed(tenantId: string, seq: number, hash: string): void {
    const h = this.heads.get(tenantId);
    if (h && h.seq >= seq) return;
    if (!h && this.heads.size >= this.max) this.heads.clear();
    this.heads.set(tenantId, { seq, hash });
  }
}
