// compactJsonb (src/eventstore/jsonb-text.ts), which the audit export uses to
// print an event's payload as JSON.stringify would without parsing it, against
// Postgres's own jsonb text: for any JSON value, stored as jsonb the way the
// store stores payloads (JSON.stringify's text, cast), what it answers is
// either null (the caller parses) or exactly JSON.stringify(JSON.parse(text)).
// It must also answer for the values events carry, or it saves nothing.
import { expect } from 'chai';
import fc from 'fast-check';
import { compactJsonb } from '../../src/eventstore/jsonb-text.js';
import { createTestDb, type TestDb } from '../support/db.js';

/** Strings with what escaping could differ on: quotes, backslashes, control characters, non-ASCII, U+2028. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.stringMatching(/^[\s\S]{0,8}$/).map((s) => s.replace(/\0/g, '')),
  fc.constantFrom('"', '\\', '\\"', '\\\\"', '\b\f\n\r\t', '\u0001\u001f\u007f', '\u2028\u2029', 'é ✓ \u{1F600}', ': ', ', ', '{"a": 1}'),
);
/** Numbers JavaScript prints with an exponent, at the edges of precision, negative zero, and plain ones. */
const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e-7, 1e-6, 1e21, 1e20, 0.1 + 0.2, 2 ** 53 + 2, 123.456, -5e-324, 1.7976931348623157e308),
);
/** Keys too: some that look like array indices (JavaScript orders those first). */
const key = fc.oneof(text, fc.constantFrom('1', '10', '01', 'a', 'ab', 'b', '-1', '4294967295'));
const value = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), number, text, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('json'), { maxKeys: 5 }),
})).json;

describe('jsonb text made JSON.stringify’s (compactJsonb, against Postgres)', function () {
  this.timeout(120_000);
  let t: TestDb;
  before(async () => (t = await createTestDb('jsonb_text')));
  after(async () => t.drop());

  /** Each value as the store stores a payload, and Postgres's text of it. */
  const jsonbTexts = async (values: unknown[]): Promise<string[]> =>
    (
      (await t.db.raw('SELECT v::jsonb::text AS t FROM unnest(?::text[]) WITH ORDINALITY AS u(v, i) ORDER BY i', [values.map((v) => JSON.stringify(v))]))
        .rows as { t: string }[]
    ).map((r) => r.t);

  it('answers null or exactly JSON.stringify(JSON.parse(text)), for any value', async () => {
    let answered = 0;
    let total = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 50 }), async (values) => {
        for (const pg of await jsonbTexts(values)) {
          total++;
          const compact = compactJsonb(pg);
          if (compact === null) continue;
          answered++;
          expect(compact, pg).to.equal(JSON.stringify(JSON.parse(pg)));
        }
      }),
      { numRuns: 60 },
    );
    // Not null for everything (a function that always gave up would pass the property): most values have nothing exotic.
    expect(answered).to.be.above(total / 4);
  });

  it('answers for payloads like the events carry, and null where it must', async () => {
    const [payload, index, exponent] = await jsonbTexts([
      { conversation_id: 'c1', part: { body: 'Hi "there",\n see: C:\\path ✓', n: 12.5, at: null, tags: ['a', 'b'] }, sealed: { v: 1, iv: 'x' } },
      { '10': 1, a: 2 },
      { n: 1e-7 },
    ]);
    expect(compactJsonb(payload!)).to.equal(JSON.stringify(JSON.parse(payload!)));
    expect(compactJsonb(index!)).to.equal(null);
    expect(compactJsonb(exponent!)).to.equal(null);
  });
});
