// Platform primitives: sealing secrets, pooled random bytes, HMAC signatures, deterministic ids.
import { expect } from 'chai';
import { createSealer } from '../../src/platform/crypto/seal.js';
import { randomBytesPooled } from '../../src/platform/crypto/random.js';
import { digestsEqual, hmacHex } from '../../src/platform/crypto/hmac.js';
import { deterministicUuid, isUuid } from '../../src/platform/ids.js';

describe('sealing (unit)', () => {
  const sealer = createSealer({ channel: 'k'.repeat(32), webhook: 'w'.repeat(32) });
  it('opens only for the same purpose, tenant and entity', () => {
    const sealed = sealer.seal('channel', 't1', 'e1', 'the secret');
    expect(sealed).to.not.include('the secret');
    expect(sealer.open('channel', 't1', 'e1', sealed)).to.equal('the secret');
    expect(() => sealer.open('channel', 't2', 'e1', sealed)).to.throw();
    expect(() => sealer.open('channel', 't1', 'e2', sealed)).to.throw();
    expect(() => sealer.open('webhook', 't1', 'e1', sealed)).to.throw();
    expect(() => createSealer({ channel: 'j'.repeat(32) }).open('channel', 't1', 'e1', sealed)).to.throw();
  });
  it('says when it has no key for a purpose', () => {
    const none = createSealer({ webhook: 'w'.repeat(32) });
    expect(none.canSeal('channel')).to.equal(false);
    expect(() => none.seal('channel', 't', 'e', 'x')).to.throw(/no sealing key/);
  });
});

describe('pooled random bytes (unit)', () => {
  it('never hands out the same bytes twice, across refills of the pool, and each caller owns its copy', () => {
    const seen = new Set<string>();
    const taken: Buffer[] = [];
    for (let i = 0; i < 2000; i++) {
      const b = randomBytesPooled(i % 2 ? 12 : 32); // about 44 KiB: ten refills of the 4 KiB pool
      expect(b.length).to.equal(i % 2 ? 12 : 32);
      seen.add(b.toString('hex'));
      taken.push(b);
    }
    expect(seen.size).to.equal(2000);
    // copies, not views of the pool: refilling it changed none of them
    expect(new Set(taken.map((b) => b.toString('hex')))).to.deep.equal(seen);
    expect(randomBytesPooled(5000).length).to.equal(5000);
    // and each owns its memory: a kept key must not keep a shared slab alive
    expect(taken.every((b) => b.buffer.byteLength === b.length)).to.equal(true);
  });
});

describe('signatures (unit)', () => {
  it('compares digests in constant time and fails on unequal length', () => {
    const d = hmacHex('secret', Buffer.from('{"a":1}'));
    expect(digestsEqual(d, d)).to.equal(true);
    expect(digestsEqual(d, d.slice(0, -1))).to.equal(false);
    expect(digestsEqual(d, '')).to.equal(false);
    expect(digestsEqual(d, hmacHex('secret', Buffer.from('{"a":2}')))).to.equal(false);
  });
});

describe('deterministic ids (unit)', () => {
  it('gives the same UUID for the same inputs and a different one otherwise', () => {
    const a = deterministicUuid('t', 'caller', 'idem-1', 'Cmd', '0');
    expect(isUuid(a)).to.equal(true);
    expect(deterministicUuid('t', 'caller', 'idem-1', 'Cmd', '0')).to.equal(a);
    expect(deterministicUuid('t', 'caller', 'idem-1', 'Cmd', '1')).to.not.equal(a);
  });
});
