// The full-text value check (issue 43, finding 6) held against Postgres itself:
// every value the filter language accepts for `body ~` is one
// websearch_to_tsquery parses, over thousands of operator soups, and the values
// Postgres cannot parse are refused.
import { expect } from 'chai';
import { fulltextProblem } from '../../src/platform/query/filter.js';
import { createTestDb, type TestDb } from '../support/db.js';

/** A small seeded generator (mulberry32): the same soups on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  '-',
  '-',
  '-',
  '-',
  ' ',
  '- ',
  '(',
  ')',
  '"',
  'or',
  ' or ',
  'and',
  '!',
  '&',
  '|',
  ':*',
  '<->',
  'a',
  'é',
  'ж',
  '中',
  '_',
  '.',
  '1',
  "'",
  '\\',
  '\t',
];

describe('full-text values against websearch_to_tsquery', function () {
  this.timeout(120_000);
  let t: TestDb;
  const parses = async (v: string): Promise<boolean> => {
    try {
      await t.db.raw("SELECT websearch_to_tsquery('simple', ?::text)", [v]);
      return true;
    } catch (e) {
      expect((e as Error).message).to.match(/stack too small|syntax/);
      return false;
    }
  };

  before(async () => (t = await createTestDb('fulltext')));
  after(async () => t?.drop());

  it('refuses what Postgres cannot parse: 33 leading -, and NOTs split by spaces or punctuation', async () => {
    for (const v of [`${'-'.repeat(33)}a`, `${'- '.repeat(33)}a`, `${'(-'.repeat(33)}a`, `a ${'-'.repeat(40)}b`, `${'- --'.repeat(11)}a`]) {
      expect(await parses(v), v).to.equal(false);
      expect(fulltextProblem(v), v).to.be.a('string');
    }
    for (const v of [
      `${'-'.repeat(16)}a`,
      'refund "credit card" -paypal',
      '-a -b -c -d -e -f -g -h -i -j -k -l -m -n -o -p -q -r -s -t',
      'or or or',
      '!!! & | :* <-> (((',
    ]) {
      expect(fulltextProblem(v), v).to.equal(null);
      expect(await parses(v), v).to.equal(true);
    }
  });

  it('accepts only values Postgres parses, over 3,000 generated operator soups', async () => {
    const next = random(43);
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      const len = 1 + Math.floor(next() * 90);
      let v = '';
      for (let i = 0; i < len; i++) v += TOKENS[Math.floor(next() * TOKENS.length)];
      if (fulltextProblem(v) !== null) continue;
      accepted++;
      expect(await parses(v), JSON.stringify(v)).to.equal(true);
    }
    // The check refuses only runs of many NOTs: most soups pass it.
    expect(accepted).to.be.above(1500);
  });
});
