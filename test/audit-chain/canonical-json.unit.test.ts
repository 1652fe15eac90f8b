// The chain's canonical form is written by safe-stable-stringify on the write path (faster) and by
// `canonicalize`, the RFC 8785 implementation the offline verifier uses: for every JSON value the service can
// store, the two must write the same bytes, or a verifier would call an untouched log rewritten.
import { expect } from 'chai';
import fc from 'fast-check';
import canonicalize from 'canonicalize';
import { canonicalReady, canonicalJson } from '../../src/platform/crypto/chain.js';

const reference = (v: unknown) => canonicalize(v);

describe('canonical JSON: the chain hashes what the offline verifier hashes', () => {
  before(() => canonicalReady);

  it('writes the same bytes as canonicalize for generated JSON values of any Unicode text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }), (v) => {
        expect(canonicalJson(v)).to.equal(reference(v));
      }),
      { numRuns: 2000, seed: 50 },
    );
  });

  it('orders members by UTF-16 code units, as RFC 8785 says (not by code points, not by locale)', () => {
    // U+FFFF sorts after U+10000 by code point but before it by UTF-16 code units (0xD800 0xDC00); "é" after "z".
    const value = { '\u{10000}': 1, '\uffff': 2, z: 3, é: 4, Z: 5, '': 6, a: { b: [3, { d: 1, c: 2 }], a: null } };
    const form = canonicalJson(value);
    expect(form).to.equal(reference(value));
    expect(form).to.equal('{"":6,"Z":5,"a":{"a":null,"b":[3,{"c":2,"d":1}]},"z":3,"é":4,"\u{10000}":1,"\uffff":2}');
  });

  it('writes numbers as ECMAScript does (RFC 8785 §3.2.2.3), a non-finite one as the null JSON.stringify stored', () => {
    const value = { big: 1e21, small: 1e-7, neg: -0, frac: 0.1 + 0.2, int: 9007199254740991, nan: NaN, inf: -Infinity };
    expect(canonicalJson(value)).to.equal('{"big":1e+21,"frac":0.30000000000000004,"inf":null,"int":9007199254740991,"nan":null,"neg":0,"small":1e-7}');
    expect(canonicalJson(value)).to.equal(reference(JSON.parse(JSON.stringify(value))));
  });

  it('leaves out undefined members and writes undefined array items as null, as JSON.stringify stores them', () => {
    const value = { a: undefined, b: [undefined, 1], c: { toJSON: () => ({ y: 1, x: 2 }) } };
    expect(canonicalJson(value)).to.equal('{"b":[null,1],"c":{"x":2,"y":1}}');
    expect(canonicalJson(value)).to.equal(reference(value));
  });

  it('refuses a lone surrogate as RFC 8785 does, and keeps text that only spells its escape', () => {
    expect(() => canonicalJson({ a: 'x\ud800y' })).to.throw(/surrogate/i);
    expect(() => canonicalJson(['\udc00'])).to.throw(/surrogate/i);
    const spelt = { a: '\\ud800 is how JSON escapes it', b: '😀' };
    expect(canonicalJson(spelt)).to.equal(reference(spelt));
  });

  it('refuses a cycle', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(() => canonicalJson(a)).to.throw();
  });
});
