// The chain and checkpoint formats as docs/audit.md specifies them: its test
// vectors (each value below is also looked for in docs/audit.md, so the page
// an auditor writes a verifier from cannot drift from the code), and the
// offline verifier (which repeats the hash on purpose, to depend on nothing of
// the service) agreeing with the service's own.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { eventHash } from '../../src/audit-verify.js';
import { canonicalReady, canonicalJson, chainedFields, chainHash, GENESIS } from '../../src/platform/crypto/chain.js';
import { EVENT_COLUMNS } from '../../src/eventstore/envelope.js';
import { jwkThumbprint, parseSigningKey, signerOf } from '../../src/platform/crypto/signing.js';
import { checkpointDigest, checkpointHolds, signedBytes } from '../../src/capabilities/audit-chain/audit-chain.checkpoints.js';

const DOCS = readFileSync(new URL('../../docs/audit.md', import.meta.url), 'utf8');
/** The value is computed here and must appear verbatim in docs/audit.md's test vectors. */
const documented = (value: string) => expect(DOCS.includes(value), `docs/audit.md does not show ${value}`).to.equal(true);

const TENANT = '6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b';
const FIRST = {
  tenant_id: TENANT,
  seq: 1,
  id: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
  type: 'workspace.created',
  aggregate_type: 'workspace',
  aggregate_id: TENANT,
  payload: { workspace_id: TENANT, name: 'Acme Support' },
  metadata: { actor: { type: 'system', id: 'cli' } },
  created_at: '2026-01-01T09:00:00.000Z',
};
const SECOND = {
  tenant_id: TENANT,
  seq: 2,
  id: '1e2d3c4b-5a69-4788-9766-554433221100',
  type: 'tag.created',
  aggregate_type: 'tag',
  aggregate_id: '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091',
  payload: { tag_id: '2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091', name: 'billing' },
  metadata: {
    actor: { type: 'member', id: '3c4d5e6f-7081-4923-8b4c-5d6e7f809102', member_id: '3c4d5e6f-7081-4923-8b4c-5d6e7f809102' },
    request_id: 'req-2',
  },
  created_at: '2026-01-01T09:05:00.000Z',
};
const SEED_07 = Buffer.alloc(32, 7).toString('base64url');

describe('hash chain and checkpoint formats (docs/audit.md)', () => {
  before(() => canonicalReady);

  it("hashes docs/audit.md's test vectors from the genesis value of 64 zeros", () => {
    expect(GENESIS).to.equal('0'.repeat(64));
    expect(chainHash(GENESIS, FIRST)).to.equal('566284a7ee75b0a08ae773c17f2724ebc2cd6ee40b365fa40ba58a7983a3e87d');
    for (const e of [FIRST, SECOND]) documented(canonicalJson(e));
    const second = chainHash(chainHash(GENESIS, FIRST), SECOND);
    expect(second).to.equal('d319d7a04d3f2f7a64bb2dfa71d40021191ce027dc95f60afcf31b6e55351ceb');
    documented(chainHash(GENESIS, FIRST));
    documented(second);
  });

  it("signs docs/audit.md's chained (version 2) checkpoints: the second names the first by the hash of its canonical form", () => {
    const signer = signerOf(parseSigningKey(SEED_07));
    const first = { version: 2, tenant_id: TENANT, seq: 1, hash: chainHash(GENESIS, FIRST), signed_at: '2026-01-01T10:00:00.000Z', prev_checkpoint: null };
    expect(signedBytes(first)).to.equal(
      '{"hash":"566284a7ee75b0a08ae773c17f2724ebc2cd6ee40b365fa40ba58a7983a3e87d","prev_checkpoint":null,"seq":1,"signed_at":"2026-01-01T10:00:00.000Z","tenant_id":"6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b","version":2}',
    );
    const one = { ...first, kid: signer.kid, signature: signer.sign(signedBytes(first)) };
    expect(one.signature).to.equal('Nhf14YrZ5Jjf4ZbnG0wf9cqztE39Zy1TPg1v59_qjDOdenQOx9G8-wHtkE0mLoY9ZMKb36e4k0tHa0t8ihHrDQ');
    // The canonical form a successor hashes: the signed members, kid and signature (not type, not id).
    expect(canonicalJson({ ...first, kid: one.kid, signature: one.signature })).to.equal(
      '{"hash":"566284a7ee75b0a08ae773c17f2724ebc2cd6ee40b365fa40ba58a7983a3e87d","kid":"--6IM5l0OosLj9yWskISYhUA3n_3CURQkmrYMSha_ck","prev_checkpoint":null,"seq":1,"signature":"Nhf14YrZ5Jjf4ZbnG0wf9cqztE39Zy1TPg1v59_qjDOdenQOx9G8-wHtkE0mLoY9ZMKb36e4k0tHa0t8ihHrDQ","signed_at":"2026-01-01T10:00:00.000Z","tenant_id":"6a1f3c2e-8d4b-4f7a-9c1e-2b3d4e5f6a7b","version":2}',
    );
    expect(checkpointDigest({ ...one, type: 'audit_checkpoint', id: randomUUID() } as typeof one)).to.equal(checkpointDigest(one));
    expect(checkpointDigest(one)).to.equal('47045cafd585cd41cc7611d3f044b4d4c8985cadd853aaebb4c980bc85370f76');
    const next = {
      version: 2,
      tenant_id: TENANT,
      seq: 2,
      hash: chainHash(chainHash(GENESIS, FIRST), SECOND),
      signed_at: '2026-01-01T11:00:00.000Z',
      prev_checkpoint: checkpointDigest(one),
    };
    const two = { ...next, kid: signer.kid, signature: signer.sign(signedBytes(next)) };
    expect(two.signature).to.equal('QKrXFOf1yhRv_yReY3gCzlbvqV0IoHHWwCpfA8cWOuoctYnC0GozwtaG5W-YIxsieEfsxZUADke4q1Z1cd6_Dw');
    expect(checkpointDigest(two)).to.equal('d0e118fc1b2591eac6910017845b94a4f2dff5aa3ec6ab13dfd67080e6bdb998');
    for (const v of [signedBytes(first), one.signature, checkpointDigest(one), signedBytes(next), two.signature, checkpointDigest(two)]) documented(v);
    expect(checkpointHolds(two, signer.publicJwk.x)).to.equal(true);
    expect(checkpointHolds({ ...two, prev_checkpoint: null }, signer.publicJwk.x), 'the predecessor is signed').to.equal(false);
    // A version-1 checkpoint (docs' first vector) keeps verifying, and is named by the hash of its own members.
    const v1 = {
      tenant_id: TENANT,
      seq: 1,
      hash: first.hash,
      signed_at: first.signed_at,
      kid: signer.kid,
      signature: 'DRGDFeSMC9hlJooPW4Cp9oD_eGupdhwpHWOJdZ8zmL-C3HeUvDeog5lnKKPqq3VhAnub8IQHBk1o8R2i5x-WAg',
    };
    expect(checkpointHolds(v1, signer.publicJwk.x)).to.equal(true);
    expect(checkpointDigest(v1)).to.equal('a11830e446281f90300a80a7508ced05f26c48f083865788ce1d62528d89060c');
    documented(checkpointDigest(v1));
  });

  it("covers an event's columns as declared once (EVENT_COLUMNS), in that order: what the export's lines carry", () => {
    // chainedFields is written out for speed (every append and every export line): held to the declaration here.
    expect(Object.keys(chainedFields({ ...FIRST, hash: 'x', position: 'y' } as Parameters<typeof chainedFields>[0]))).to.deep.equal(Object.keys(EVENT_COLUMNS));
  });

  it('hashes the metadata whole, as the export line carries it: a `hash` member in it is hashed like any other (the offline verifier agrees)', () => {
    const withHash = { ...FIRST, metadata: { ...FIRST.metadata, hash: 'ab'.repeat(32) } };
    expect(chainHash(GENESIS, withHash)).to.not.equal(chainHash(GENESIS, FIRST));
    expect(eventHash(GENESIS, JSON.parse(JSON.stringify({ ...withHash, hash: 'x' })))).to.equal(chainHash(GENESIS, withHash));
  });

  it("signs docs/audit.md's checkpoint vector with the key of seed 0x07…, named by its RFC 7638 thumbprint", () => {
    const signer = signerOf(parseSigningKey(SEED_07));
    expect(signer.publicJwk.x).to.equal('6kpsY-KcUgq-9VB7Ey7F-ZVHdq6-vnuSQh7qaRRG0iw');
    expect(signer.kid).to.equal('--6IM5l0OosLj9yWskISYhUA3n_3CURQkmrYMSha_ck');
    expect(jwkThumbprint(signer.publicJwk.x)).to.equal(signer.kid);
    const message = canonicalJson({ tenant_id: TENANT, seq: 1, hash: chainHash(GENESIS, FIRST), signed_at: '2026-01-01T10:00:00.000Z' });
    expect(signer.sign(message)).to.equal('DRGDFeSMC9hlJooPW4Cp9oD_eGupdhwpHWOJdZ8zmL-C3HeUvDeog5lnKKPqq3VhAnub8IQHBk1o8R2i5x-WAg');
  });

  it('the offline verifier computes the same hash as the service, over sealed payloads, non-ASCII text and numbers', () => {
    let prev = GENESIS;
    for (let seq = 1; seq <= 50; seq++) {
      const e = {
        ...FIRST,
        seq,
        id: randomUUID(),
        payload: {
          é: seq / 3,
          big: 2 ** 53 - seq,
          tiny: 1e-7 * seq,
          text: `x\u2028y "q" \\ ${'😀'.repeat(seq % 3)}`,
          $sealed: { s: `part:${randomUUID()}`, f: ['body'], c: 'AQID' },
          list: [null, true, { b: 1, a: 2, '10': 3, '9': 4 }],
        },
        metadata: { actor: { type: 'api_key', id: randomUUID(), member_id: randomUUID() }, request_id: `req-${seq}` },
      };
      const service = chainHash(prev, e);
      // The line as the export writes it (JSON.stringify), parsed again, as the offline verifier reads it.
      expect(eventHash(prev, JSON.parse(JSON.stringify({ ...e, hash: service })))).to.equal(service);
      prev = service;
    }
  });

  it('accepts a signing key as a PKCS#8 PEM (also with escaped line breaks) or a base64url seed, and refuses anything else', () => {
    const seed = Buffer.alloc(32, 9).toString('base64url');
    const kid = signerOf(parseSigningKey(seed)).kid;
    const pem = parseSigningKey(seed).export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(signerOf(parseSigningKey(pem)).kid).to.equal(kid);
    expect(signerOf(parseSigningKey(pem.replace(/\n/g, '\\n'))).kid).to.equal(kid);
    for (const bad of ['short', Buffer.alloc(31).toString('base64url'), '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----'])
      expect(() => parseSigningKey(bad)).to.throw();
  });
});
