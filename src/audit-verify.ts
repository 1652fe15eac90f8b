// The offline verifier of an audit export (docs/audit.md). One file on purpose,
// depending on nothing of the service (only node: modules and `canonicalize`,
// an RFC 8785 implementation), so that an auditor can read all of it, or write
// their own from docs/audit.md, and run it with nothing but the export and the
// public keys:
//
//   node dist/audit-verify.js --file export.ndjson --keys keys.json [--trusted kept.ndjson]
//   npm run -s cli -- audit verify --file export.ndjson --keys keys.json [--trusted kept.ndjson]   (the same code)
//
// keys.json is what GET /api/audit/keys answers ({"keys": [JWK, ...]}), or an
// array of JWKs. kept.ndjson holds checkpoints you kept earlier, one JSON object
// a line as GET /api/audit/checkpoint answers them (or the service's witness
// file): the export must reproduce each one's hash at its seq, and must not end
// before it. Exit 0 when every line holds, 1 naming the workspace and the first
// seq (and line) that does not, 2 for a usage error.
//
// What holds: each line is exactly as the service wrote it (JSON, the members
// its kind has and no other); the header's tenant and seqs match the lines; each
// event's seq follows the one before; each event's hash is hex SHA-256 of the
// previous hash (the header's prev_hash for the first) followed by the RFC 8785
// canonical JSON of the line without `hash`; the last line is a checkpoint of
// the last seq and hash, whose Ed25519 signature (canonical unpadded base64url)
// over the canonical JSON of {version, tenant_id, seq, hash, signed_at,
// prev_checkpoint} (version 1: {tenant_id, seq, hash, signed_at}) verifies with
// the public key its kid names, a key whose kid is its RFC 7638 thumbprint. So
// one changed byte anywhere fails it. A file may hold several exports one after
// the other.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import canonicalize from 'canonicalize';

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

export interface OfflineFailure {
  workspace_id: string | null;
  /** the first seq that does not hold (the one expected there when the line names none) */
  seq: number | null;
  /** 1-based line of the file */
  line: number;
  reason: string;
}

export interface OfflineReport {
  verified: boolean;
  /** one per export in the file, each with its signed checkpoint */
  exports: { workspace_id: string; after_seq: number; to_seq: number; events: number; kid: string; signed_at: string; version: number }[];
  /** checkpoints kept earlier (--trusted) whose seq the file's exports cover, each held against them */
  trusted_checked: number;
  failure: OfflineFailure | null;
}

/** A checkpoint kept earlier: at `seq`, the workspace's chain must end in `hash`. */
export interface Trusted {
  tenant_id: string;
  seq: number;
  hash: string;
  /** 1-based line of the --trusted file */
  line: number;
}

const HEADER = ['type', 'tenant_id', 'after_seq', 'to_seq', 'prev_hash'];
const EVENT = ['tenant_id', 'seq', 'id', 'type', 'aggregate_type', 'aggregate_id', 'payload', 'metadata', 'created_at', 'hash'];
const CHECKPOINT_V1 = ['type', 'tenant_id', 'seq', 'hash', 'signed_at', 'kid', 'signature'];
const CHECKPOINT_V2 = ['type', 'version', 'tenant_id', 'seq', 'hash', 'signed_at', 'prev_checkpoint', 'kid', 'signature'];
const GENESIS = '0'.repeat(64);
const HEX64 = /^[0-9a-f]{64}$/;

/** The public keys of a keys.json: a JWK Set, an array of JWKs, or one JWK; by kid (each checked when a checkpoint names it). */
export function keysFrom(json: unknown): Map<string, Jwk> {
  const list = Array.isArray(json) ? json : json && typeof json === 'object' && 'keys' in json ? (json as { keys: unknown }).keys : [json];
  const out = new Map<string, Jwk>();
  for (const k of Array.isArray(list) ? list : []) {
    if (k && typeof k === 'object' && typeof (k as Jwk).kid === 'string') out.set((k as Jwk).kid, k as Jwk);
  }
  return out;
}

/**
 * The checkpoints of a --trusted file: one JSON object a line (blank lines skipped), each with at least
 * `tenant_id`, `seq` and a 64-hex-digit `hash`, as GET /api/audit/checkpoint answers. Throws naming the line otherwise.
 */
export function trustedFrom(text: string): Trusted[] {
  const out: Trusted[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new Error(`line ${i + 1} is not JSON`);
    }
    if (!o || typeof o.tenant_id !== 'string' || !Number.isSafeInteger(o.seq) || (o.seq as number) < 0 || typeof o.hash !== 'string' || !HEX64.test(o.hash))
      throw new Error(`line ${i + 1} is not a checkpoint ({tenant_id, seq, hash, ...})`);
    out.push({ tenant_id: o.tenant_id, seq: o.seq as number, hash: o.hash, line: i + 1 });
  });
  return out;
}

/**
 * Whether `text` is the one base64url form (RFC 4648 §5, unpadded) of `bytes` bytes. Node's decoder skips what it
 * does not know (`=`, `.`, spaces) and the unused low bits of the last character: only the string that encodes
 * back to itself is accepted, so no changed character reads as the same value.
 */
function canonicalBase64url(text: unknown, bytes: number): text is string {
  if (typeof text !== 'string' || text.length !== Math.ceil((bytes * 4) / 3) || !/^[A-Za-z0-9_-]+$/.test(text)) return false;
  const decoded = Buffer.from(text, 'base64url');
  return decoded.length === bytes && decoded.toString('base64url') === text;
}

/** What is wrong with a public key (RFC 8037 Ed25519, canonical x, kid its RFC 7638 thumbprint), or null. */
export function keyProblem(jwk: Jwk): string | null {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return 'it is not an Ed25519 key (kty OKP, crv Ed25519)';
  if (!canonicalBase64url(jwk.x, 32)) return 'its x is not 32 bytes in canonical unpadded base64url';
  const thumbprint = createHash('sha256')
    .update(canonicalize({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })!, 'utf8')
    .digest('base64url');
  return jwk.kid === thumbprint ? null : `its kid is not its RFC 7638 thumbprint (${thumbprint})`;
}

/** The bytes a checkpoint's signature covers, by its version. */
function signedBytes(o: Record<string, unknown>): string {
  const base = { tenant_id: o.tenant_id, seq: o.seq, hash: o.hash, signed_at: o.signed_at };
  return canonicalize(o.version === undefined ? base : { version: o.version, ...base, prev_checkpoint: o.prev_checkpoint })!;
}

/** hex(SHA-256(previous hash, as ASCII ‖ RFC 8785 canonical JSON of the event line without `hash`, as UTF-8)). */
export function eventHash(previous: string, line: Record<string, unknown>): string {
  const { hash: _hash, ...event } = line;
  return createHash('sha256').update(previous, 'utf8').update(canonicalize(event)!, 'utf8').digest('hex');
}

function signatureHolds(jwk: Jwk, message: string, signature: unknown): boolean {
  if (!canonicalBase64url(signature, 64)) return false;
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    return verify(null, Buffer.from(message, 'utf8'), key, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

const hasExactly = (o: Record<string, unknown>, members: string[]) => {
  const keys = Object.keys(o);
  return keys.length === members.length && members.every((m) => Object.prototype.hasOwnProperty.call(o, m));
};

/** The lines of an export, split on LF only (a CR is not a line end here), decoded as strict UTF-8. */
async function* linesOf(source: Buffer | AsyncIterable<Buffer>): AsyncGenerator<string | Error> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = Buffer.alloc(0);
  for await (const chunk of Buffer.isBuffer(source) ? [source] : source) {
    let buf = Buffer.concat([rest, chunk]);
    let nl: number;
    while ((nl = buf.indexOf(0x0a)) >= 0) {
      try {
        yield decoder.decode(buf.subarray(0, nl));
      } catch {
        yield new Error('the line is not UTF-8');
      }
      buf = buf.subarray(nl + 1);
    }
    rest = buf;
  }
  if (rest.length > 0) yield new Error('the file does not end with a line feed (truncated, or bytes after the last line)');
}

export const verifyExportFile = (file: string, keys: Map<string, Jwk>, trusted: Trusted[] = []): Promise<OfflineReport> =>
  verifyExport(createReadStream(file) as AsyncIterable<Buffer>, keys, trusted);

/** Verifies the bytes of an export (one or several, back to back), against the checkpoints kept earlier (`trusted`). */
export async function verifyExport(source: Buffer | AsyncIterable<Buffer>, keys: Map<string, Jwk>, trusted: Trusted[] = []): Promise<OfflineReport> {
  const report: OfflineReport = { verified: false, exports: [], trusted_checked: 0, failure: null };
  type Section = { tenant: string; afterSeq: number; toSeq: number; seq: number; hash: string; events: number };
  let section: Section | null = null;
  let lineNo = 0;
  const fail = (reason: string, seq: number | null = section ? section.seq + 1 : null, workspace = section?.tenant ?? null): OfflineReport => {
    report.failure = { workspace_id: workspace, seq, line: lineNo, reason };
    return report;
  };
  // Kept checkpoints by workspace and seq; each export's chain must reproduce their hashes, and the file must reach them.
  const kept = new Map<string, Trusted[]>();
  for (const t of trusted) kept.set(`${t.tenant_id} ${t.seq}`, [...(kept.get(`${t.tenant_id} ${t.seq}`) ?? []), t]);
  const checked = new Set<Trusted>();
  const ends = new Map<string, number>();
  /** The kept checkpoint at this seq whose hash the chain does not reproduce, if any. */
  const keptAt = (tenant: string, seq: number, hash: string): Trusted | undefined => {
    let differs: Trusted | undefined;
    for (const t of kept.get(`${tenant} ${seq}`) ?? []) {
      checked.add(t);
      if (t.hash !== hash) differs ??= t;
    }
    return differs;
  };
  const rewritten = (t: Trusted) =>
    `the chain's hash at seq ${t.seq} is not the one of the checkpoint you kept (--trusted line ${t.line}): the log was rewritten`;
  for await (const text of linesOf(source)) {
    lineNo++;
    if (text instanceof Error) return fail(text.message);
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return fail('the line is not JSON');
    }
    // Exactly as the service wrote it: its own serialisation, nothing added, reordered or respaced.
    if (o === null || typeof o !== 'object' || Array.isArray(o) || JSON.stringify(o) !== text) return fail('the line is not as the service wrote it');
    if (section === null) {
      if (!hasExactly(o, HEADER) || o.type !== 'audit_export') return fail('expected the header line of an export ({"type":"audit_export",...})', null);
      const { tenant_id, after_seq, to_seq, prev_hash } = o;
      if (typeof tenant_id !== 'string' || !Number.isSafeInteger(after_seq) || !Number.isSafeInteger(to_seq) || typeof prev_hash !== 'string')
        return fail('the header is malformed', null);
      if ((after_seq as number) < 0 || (to_seq as number) < (after_seq as number)) return fail('the header names an impossible range', null);
      if (after_seq === 0 && prev_hash !== GENESIS) return fail('an export from the first event must chain from the genesis value', 1);
      section = { tenant: tenant_id, afterSeq: after_seq as number, toSeq: to_seq as number, seq: after_seq as number, hash: prev_hash, events: 0 };
      const differs = keptAt(tenant_id, section.seq, prev_hash);
      if (differs) return fail(rewritten(differs), section.seq);
      continue;
    }
    if ('signature' in o) {
      // Version 2 names its version and its predecessor; version 1 (before checkpoints chained) has neither.
      const v2 = 'version' in o;
      if (!hasExactly(o, v2 ? CHECKPOINT_V2 : CHECKPOINT_V1) || o.type !== 'audit_checkpoint') return fail('the checkpoint line is malformed');
      if (v2 && (o.version !== 2 || !(o.prev_checkpoint === null || (typeof o.prev_checkpoint === 'string' && HEX64.test(o.prev_checkpoint)))))
        return fail('the checkpoint line is malformed (version 2 with a prev_checkpoint of 64 hex digits or null)');
      if (o.tenant_id !== section.tenant) return fail("the checkpoint is another workspace's", section.seq);
      if (section.seq !== section.toSeq) return fail(`the export ends at seq ${section.seq}, its header says ${section.toSeq}`);
      if (o.seq !== section.seq || o.hash !== section.hash) return fail('the checkpoint does not sign the last event exported', section.seq);
      const jwk = typeof o.kid === 'string' ? keys.get(o.kid) : undefined;
      if (!jwk) return fail(`the checkpoint's key ${String(o.kid)} is not among the public keys given`, section.seq);
      const problem = keyProblem(jwk);
      if (problem) return fail(`the key given as ${jwk.kid} is not that key: ${problem}`, section.seq);
      if (!signatureHolds(jwk, signedBytes(o), o.signature)) return fail('the checkpoint signature does not verify', section.seq);
      report.exports.push({
        workspace_id: section.tenant,
        after_seq: section.afterSeq,
        to_seq: section.toSeq,
        events: section.events,
        kid: jwk.kid,
        signed_at: String(o.signed_at),
        version: v2 ? 2 : 1,
      });
      ends.set(section.tenant, Math.max(ends.get(section.tenant) ?? 0, section.toSeq));
      section = null;
      continue;
    }
    if (!hasExactly(o, EVENT)) return fail('the event line is malformed');
    if (o.tenant_id !== section.tenant) return fail("the event is another workspace's");
    if (o.seq !== section.seq + 1) return fail(`expected seq ${section.seq + 1}, the line says ${String(o.seq)}`);
    if (section.seq + 1 > section.toSeq) return fail(`the export goes past its header's to_seq ${section.toSeq}`);
    if (typeof o.hash !== 'string' || eventHash(section.hash, o) !== o.hash)
      return fail('the hash is not SHA-256 of the previous hash and the event: the event or an earlier line was changed');
    section.seq++;
    section.hash = o.hash;
    section.events++;
    const differs = keptAt(section.tenant, section.seq, section.hash);
    if (differs) return fail(rewritten(differs), section.seq);
  }
  if (section !== null) {
    // Lines missing at the end name the first seq missing; a checkpoint missing names the seq it would have signed.
    if (section.seq < section.toSeq) return fail(`the file ends at seq ${section.seq}, before its header's to_seq ${section.toSeq}`);
    return fail("the file ends before the export's signed checkpoint", section.toSeq);
  }
  if (report.exports.length === 0) return fail('the file holds no export', null);
  // A kept checkpoint beyond the file's end: the log lost events it had (or the export stops short of them).
  for (const [tenant, end] of ends) {
    const beyond = trusted.filter((t) => t.tenant_id === tenant && t.seq > end).sort((a, b) => a.seq - b.seq)[0];
    if (beyond) {
      return fail(
        `the file's chain ends at seq ${end}, before the checkpoint you kept at seq ${beyond.seq} (--trusted line ${beyond.line}): events it covered are missing`,
        end + 1,
        tenant,
      );
    }
  }
  report.trusted_checked = checked.size;
  report.verified = true;
  return report;
}

/** As a program: `--file export.ndjson --keys keys.json`; prints the report as JSON. */
async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const file = arg('--file');
  const keysFile = arg('--keys');
  const trustedFile = arg('--trusted');
  if (!file || !keysFile) {
    process.stderr.write('usage: node audit-verify.js --file export.ndjson --keys keys.json [--trusted kept.ndjson]\n');
    return 2;
  }
  const trusted = trustedFile ? trustedFrom(readFileSync(trustedFile, 'utf8')) : [];
  const report = await verifyExportFile(file, keysFrom(JSON.parse(readFileSync(keysFile, 'utf8'))), trusted);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  if (report.failure) {
    const f = report.failure;
    process.stderr.write(`workspace ${f.workspace_id ?? '(unknown)'}: first failing seq ${f.seq ?? '(none)'} (line ${f.line}): ${f.reason}\n`);
  }
  return report.verified ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e) => {
      process.stderr.write(`${(e as Error).message}\n`);
      process.exit(2);
    },
  );
}
