// The chain and checkpoint formats as docs/audit.md specifies them: its test
// vectors, and the offline verifier (which repeats the hash on purpose, to
// depend on nothing of the service) agreeing with the service's own.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { eventHash } from '../../src/audit-verify.js';
import { canonicalReady, canonicalJson, chainHash, GENESIS } from '../../src/platform/crypto/chain.js';
import { jwkThumbprint, parseSigningKey, signerOf } from '../../src/platform/crypto/signing.js';

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

describe('hash chain and checkpoint formats (docs/audit.md)', () => {
  before(() => canonicalReady);

  it("hashes docs/audit.md's test vector from the genesis value of 64 zeros", () => {
    expect(GENESIS).to.equal('0'.repeat(64));
    expect(chainHash(GENESIS, FIRST)).to.equal('566284a7ee75b0a08ae773c17f2724ebc2cd6ee40b365fa40ba58a7983a3e87d');
  });

  it("signs docs/audit.md's checkpoint vector with the key of seed 0x07…, named by its RFC 7638 thumbprint", () => {
    const signer = signerOf(parseSigningKey(Buffer.alloc(32, 7).toString('base64url')));
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
