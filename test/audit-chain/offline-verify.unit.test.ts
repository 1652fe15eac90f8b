// The offline verifier (src/audit-verify.ts) on exports built here from
// docs/audit.md's vectors, signed with the key of seed 0x07: strict encodings
// (a signature or key that Node's lenient decoder would read as the same bytes
// fails), a key whose kid is not its RFC 7638 thumbprint fails, version-1 and
// version-2 checkpoint lines both verify, and the checkpoints an auditor kept
// (--trusted) must be reproduced at their seqs and not be beyond the file's end.
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { keysFrom, trustedFrom, verifyExport, type OfflineReport, type Trusted } from '../../src/audit-verify.js';
import { canonicalReady, chainAll, GENESIS } from '../../src/platform/crypto/chain.js';
import { isCanonicalBase64url, parseSigningKey, publicKeyProblem, signatureHolds, signerOf, type Signer } from '../../src/platform/crypto/signing.js';
import { checkpointDigest, signedBytes } from '../../src/capabilities/audit-chain/audit-chain.checkpoints.js';

const TENANT = '6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b';
const event = (seq: number) => ({
  tenant_id: TENANT,
  seq,
  id: `0f8e7d6c-5b4a-4392-8170-${String(seq).padStart(12, '0')}`,
  type: 'conversation.created',
  aggregate_type: 'conversation',
  aggregate_id: '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091',
  payload: { n: seq, $sealed: { s: 'contact:x', f: ['name'], c: 'AQID' } },
  metadata: { actor: { type: 'system', id: 'cli' } },
  created_at: '2026-01-01T09:00:00.000Z',
});
const EVENTS = [1, 2, 3, 4, 5].map(event);
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('offline verifier: encodings, key ids, checkpoint versions, kept checkpoints', () => {
  let signer: Signer;
  let hashes: string[];
  before(async () => {
    await canonicalReady;
    signer = signerOf(parseSigningKey(Buffer.alloc(32, 7).toString('base64url')));
    hashes = chainAll(GENESIS, EVENTS);
  });

  /** An export of seqs after..to (one workspace), its checkpoint line in version `version`, signed by `by`. */
  function exportText(o: { after?: number; to?: number; version?: 1 | 2; by?: Signer; checkpoint?: (line: Record<string, unknown>) => string } = {}): string {
    const after = o.after ?? 0;
    const to = o.to ?? EVENTS.length;
    const by = o.by ?? signer;
    const prev = after === 0 ? GENESIS : hashes[after - 1]!;
    const hash = to === 0 ? GENESIS : hashes[to - 1]!;
    const lines = [JSON.stringify({ type: 'audit_export', tenant_id: TENANT, after_seq: after, to_seq: to, prev_hash: prev })];
    for (let s = after + 1; s <= to; s++) lines.push(JSON.stringify({ ...EVENTS[s - 1], hash: hashes[s - 1] }));
    const statement =
      (o.version ?? 2) === 2
        ? { version: 2, tenant_id: TENANT, seq: to, hash, signed_at: '2026-01-01T10:00:00.000Z', prev_checkpoint: 'ab'.repeat(32) }
        : { tenant_id: TENANT, seq: to, hash, signed_at: '2026-01-01T10:00:00.000Z' };
    const cp = { type: 'audit_checkpoint', ...statement, kid: by.kid, signature: by.sign(signedBytes(statement)) };
    lines.push(o.checkpoint ? o.checkpoint(cp) : JSON.stringify(cp));
    return `${lines.join('\n')}\n`;
  }
  const verify = (text: string, keys: unknown = { keys: [signer.publicJwk] }, trusted: Trusted[] = []): Promise<OfflineReport> =>
    verifyExport(Buffer.from(text, 'utf8'), keysFrom(keys), trusted);
  const fails = async (r: Promise<OfflineReport>, seq: number, reason: RegExp) => {
    const report = await r;
    expect(report.verified, JSON.stringify(report)).to.equal(false);
    expect(report.failure!.seq).to.equal(seq);
    expect(report.failure!.reason).to.match(reason);
  };

  it('verifies version-2 checkpoint lines, and version-1 lines (signed before checkpoints chained)', async () => {
    const two = await verify(exportText());
    expect(two.verified, JSON.stringify(two.failure)).to.equal(true);
    expect(two.exports[0]).to.include({ version: 2, to_seq: 5, kid: signer.kid });
    const one = await verify(exportText({ version: 1 }));
    expect(one.verified, JSON.stringify(one.failure)).to.equal(true);
    expect(one.exports[0]).to.include({ version: 1 });
    // A version-2 line whose predecessor or version is taken out reads as version 1, and its signature then fails.
    await fails(verify(exportText({ checkpoint: ({ version: _v, prev_checkpoint: _p, ...rest }) => JSON.stringify(rest) })), 5, /signature does not verify/);
  });

  it('refuses every other spelling of the same signature bytes: its last character changed, "==" appended, a "." or a space inserted', async () => {
    const variants: Record<string, (sig: string) => string> = {
      // 86 characters carry 516 bits for 512: the last one's low 4 bits are unused, and a lenient decoder ignores them.
      'last character (unused bits)': (sig) => sig.slice(0, -1) + B64URL[B64URL.indexOf(sig.at(-1)!) ^ 1]!,
      'padding appended': (sig) => `${sig}==`,
      'a dot inserted': (sig) => `${sig.slice(0, 40)}.${sig.slice(40)}`,
      'a space inserted': (sig) => `${sig.slice(0, 40)} ${sig.slice(40)}`,
    };
    for (const [what, change] of Object.entries(variants)) {
      let original = '';
      let message = '';
      const text = exportText({
        checkpoint: (cp) => {
          original = cp.signature as string;
          message = signedBytes(cp as never);
          return JSON.stringify({ ...cp, signature: change(original) });
        },
      });
      // The same 64 bytes to a lenient decoder: only the spelling differs.
      const changed = change(original);
      expect(Buffer.from(changed, 'base64url').equals(Buffer.from(original, 'base64url')), what).to.equal(true);
      await fails(verify(text), 5, /signature does not verify/);
      // The service's own check is as strict.
      expect(signatureHolds(signer.publicJwk.x, message, original), what).to.equal(true);
      expect(signatureHolds(signer.publicJwk.x, message, changed), what).to.equal(false);
      expect(isCanonicalBase64url(changed, 64), what).to.equal(false);
    }
    expect(isCanonicalBase64url(signer.sign('x'), 64)).to.equal(true);
  });

  it("refuses a key whose kid is not its RFC 7638 thumbprint: an attacker's key listed under the genuine kid, or a padded x", async () => {
    const attacker = signerOf(generateKeyPairSync('ed25519').privateKey);
    // A checkpoint signed by the attacker, naming the genuine kid, and a keys file listing the attacker's x under it.
    const forged = exportText({ checkpoint: (cp) => JSON.stringify({ ...cp, kid: signer.kid, signature: attacker.sign(signedBytes(cp as never)) }) });
    const lying = { keys: [{ ...attacker.publicJwk, kid: signer.kid }] };
    await fails(verify(forged, lying), 5, /kid is not its RFC 7638 thumbprint/);
    await fails(verify(exportText(), { keys: [{ ...signer.publicJwk, x: `${signer.publicJwk.x}=` }] }), 5, /x is not 32 bytes in canonical unpadded base64url/);
    await fails(verify(exportText(), [{ ...signer.publicJwk, crv: 'X25519' }]), 5, /not an Ed25519 key/);
    // The service checks its key rows the same way.
    expect(publicKeyProblem({ ...attacker.publicJwk, kid: signer.kid })).to.match(/not its RFC 7638 thumbprint/);
    expect(publicKeyProblem(signer.publicJwk)).to.equal(null);
  });

  it('--trusted: passes when the file reproduces every checkpoint kept, fails naming the seq when one is not reproduced or lies beyond the end', async () => {
    const kept = (seq: number, hash = seq === 0 ? GENESIS : hashes[seq - 1]!): Trusted => ({ tenant_id: TENANT, seq, hash, line: seq + 1 });
    const ok = await verify(exportText(), undefined, [kept(2), kept(5)]);
    expect(ok.verified, JSON.stringify(ok.failure)).to.equal(true);
    expect(ok.trusted_checked).to.equal(2);
    // A partial export holds the kept checkpoint at its after_seq through its header.
    expect((await verify(exportText({ after: 2 }), undefined, [kept(2), kept(4)])).trusted_checked).to.equal(2);
    await fails(verify(exportText({ after: 2 }), undefined, [kept(2, 'cd'.repeat(32))]), 2, /checkpoint you kept \(--trusted line 3\)/);
    // A history rewritten at seq 3 with every later hash recomputed: it holds as a chain, and the kept seq 4 names it.
    await fails(verify(exportText(), undefined, [kept(4, 'ab'.repeat(32))]), 4, /not the one of the checkpoint you kept/);
    // A file that ends before a kept checkpoint: the first seq missing.
    await fails(verify(exportText({ to: 3 }), undefined, [kept(5)]), 4, /ends at seq 3, before the checkpoint you kept at seq 5/);
    // Kept checkpoints of another workspace are not this file's business.
    expect((await verify(exportText(), undefined, [{ ...kept(9), tenant_id: 'another' }])).trusted_checked).to.equal(0);
  });

  it('reads a --trusted file as GET /api/audit/checkpoint answers (one object a line), and refuses a line that is not one', () => {
    const line = JSON.stringify({ type: 'audit_checkpoint', id: 'x', version: 2, tenant_id: TENANT, seq: 3, hash: 'ab'.repeat(32), kid: 'k', signature: 's' });
    expect(trustedFrom(`${line}\n\n${line}\n`)).to.deep.equal([
      { tenant_id: TENANT, seq: 3, hash: 'ab'.repeat(32), line: 1 },
      { tenant_id: TENANT, seq: 3, hash: 'ab'.repeat(32), line: 3 },
    ]);
    expect(() => trustedFrom('{"seq":1}\n')).to.throw(/line 1 is not a checkpoint/);
    expect(() => trustedFrom(`${line}\nnope\n`)).to.throw(/line 2 is not JSON/);
  });

  it('names the seq of a deleted line, and the seq a missing checkpoint would have signed', async () => {
    const lines = exportText().split('\n');
    await fails(verify([...lines.slice(0, 3), ...lines.slice(4)].join('\n')), 3, /expected seq 3, the line says 4/);
    await fails(verify(`${lines.slice(0, -2).join('\n')}\n`), 5, /ends before the export's signed checkpoint/);
    await fails(verify(`${lines.slice(0, -3).join('\n')}\n`), 5, /ends at seq 4, before its header's to_seq 5/);
  });

  it('names a checkpoint by the hash of its canonical form, whatever its type and id', () => {
    const statement = { version: 2, tenant_id: TENANT, seq: 1, hash: hashes[0]!, signed_at: '2026-01-01T10:00:00.000Z', prev_checkpoint: null };
    const c = { ...statement, kid: signer.kid, signature: signer.sign(signedBytes(statement)) };
    expect(checkpointDigest(c)).to.match(/^[0-9a-f]{64}$/);
    expect(checkpointDigest({ ...c, signature: signer.sign('other') })).to.not.equal(checkpointDigest(c));
  });
});
