import { expect } from 'chai';
import { TableBatch, Writes } from '../../src/projections/table-batch.js';
import { createTestDb, type TestDb } from '../support/db.js';

const SPEC = { table: 'tb_items', key: ['k'], columns: { k: 'text', name: 'text', n: 'int', tags: 'text[]' } } as const;

describe('TableBatch (set-based projector writes)', function () {
  let t: TestDb;
  before(async () => {
    t = await createTestDb('table_batch');
    await t.db.raw('CREATE TABLE tb_items (k text PRIMARY KEY, name text, n int NOT NULL DEFAULT 0, tags text[])');
    await t.db('tb_items').insert([
      { k: 'old', name: 'before', n: 5, tags: ['a'] },
      { k: 'gone', name: 'bye', n: 1, tags: [] },
    ]);
  });
  after(async () => t.drop());

  it('folds inserts, patches, counters and deletes of one batch into one statement with the in-order result', async () => {
    const b = new TableBatch(SPEC);
    b.insert({ k: 'new', name: 'first', n: 0, tags: ['x'] });
    b.patch({ k: 'new' }, { name: 'renamed' }, { n: 2 });
    b.patch({ k: 'old' }, { name: 'after' }, { n: 1 });
    b.patch({ k: 'old' }, {}, { n: 3 });
    b.delete({ k: 'gone' });
    b.patch({ k: 'gone' }, { name: 'ignored after delete' });
    b.insert({ k: 'back', name: 'x', n: 0, tags: null });
    b.delete({ k: 'back' });
    const statements = b.statements();
    expect(b.statements()).to.deep.equal([]); // the batch is empty afterwards
    const queries: string[] = [];
    const count = (q: { sql: string }) => queries.push(q.sql);
    t.db.on('query', count);
    try {
      await t.db.transaction(async (trx) => {
        const w = new Writes();
        w.add(...statements);
        await w.run(trx);
      });
    } finally {
      t.db.removeListener('query', count);
    }
    expect(queries.filter((q) => !/^(BEGIN|COMMIT)/i.test(q))).to.have.length(1);
    const rows = await t.db('tb_items').orderBy('k');
    expect(rows).to.deep.equal([
      { k: 'new', name: 'renamed', n: 2, tags: ['x'] },
      { k: 'old', name: 'after', n: 9, tags: ['a'] },
    ]);
  });

  it('replaces a row with an insert: a column left out or undefined becomes NULL, a key outside the spec is not written', async () => {
    await t.db('tb_items').insert({ k: 'replaced', name: 'before', n: 4, tags: ['a'] });
    const b = new TableBatch(SPEC);
    b.insert({ k: 'replaced', name: undefined, n: 1, stray: 'not a column' });
    await t.db.transaction(async (trx) => {
      const w = new Writes();
      w.add(...b.statements());
      await w.run(trx);
    });
    expect(await t.db('tb_items').where({ k: 'replaced' })).to.deep.equal([{ k: 'replaced', name: null, n: 1, tags: null }]);
  });

  it('adds to and removes from a set-valued column as deltas, folded in order, without reading the stored value', async () => {
    await t.db('tb_items').insert([
      { k: 's1', name: 's', n: 0, tags: ['a', 'b', 'c'] },
      { k: 's2', name: 's', n: 0, tags: ['a'] },
      { k: 's4', name: 's', n: 0, tags: ['a', 'b'] },
    ]);
    const b = new TableBatch(SPEC);
    b.addTo({ k: 's1' }, 'tags', ['d']);
    b.removeFrom({ k: 's1' }, 'tags', ['b']);
    b.addTo({ k: 's1' }, 'tags', ['a']); // already there: stays once, in place
    b.addTo({ k: 's2' }, 'tags', ['z']);
    b.removeFrom({ k: 's2' }, 'tags', ['z']); // added then removed in one batch: absent
    b.removeFrom({ k: 's2' }, 'tags', ['a']);
    b.addTo({ k: 's2' }, 'tags', ['a']); // removed then added again: present
    b.removeFrom({ k: 's4' }, 'tags', ['a']);
    b.addTo({ k: 's4' }, 'tags', ['a']); // taken off and put back: moves to the end
    b.insert({ k: 's3', name: 'new', n: 0, tags: [] });
    b.addTo({ k: 's3' }, 'tags', ['q', 'r']);
    b.removeFrom({ k: 's3' }, 'tags', ['q']); // folds into the pending insert
    await t.db.transaction(async (trx) => {
      const w = new Writes();
      w.add(...b.statements());
      await w.run(trx);
    });
    const rows = await t.db('tb_items').whereIn('k', ['s1', 's2', 's3', 's4']).orderBy('k').select('k', 'tags');
    expect(rows).to.deep.equal([
      { k: 's1', tags: ['a', 'c', 'd'] },
      { k: 's2', tags: ['a'] }, // (removed and put back: at the end, as one event at a time would leave it)
      { k: 's3', tags: ['r'] },
      { k: 's4', tags: ['b', 'a'] },
    ]);
  });
});

describe('TableBatch: deleteWhere (rows by their values, folded in order)', function () {
  let t: TestDb;
  const VIEWS = { table: 'tb_views', key: ['k'], columns: { k: 'text', owner: 'uuid', vis: 'text', name: 'text' } } as const;
  const M1 = '00000000-0000-4000-8000-000000000001';
  const M2 = '00000000-0000-4000-8000-000000000002';
  const stored = [
    { k: 'untouched', owner: M1, vis: 'private', name: 'a' },
    { k: 'renamed-before', owner: M1, vis: 'private', name: 'a' },
    { k: 'renamed-after', owner: M1, vis: 'private', name: 'a' },
    { k: 'published-before', owner: M1, vis: 'private', name: 'a' },
    { k: 'taken-before', owner: M2, vis: 'workspace', name: 'a' },
    { k: 'shared', owner: M1, vis: 'workspace', name: 'a' },
    { k: 'shared-renamed', owner: M1, vis: 'workspace', name: 'a' },
    { k: 'others', owner: M2, vis: 'private', name: 'a' },
  ];
  const run = async (batches: TableBatch[]) => {
    await t.db.transaction(async (trx) => {
      for (const b of batches) {
        const w = new Writes();
        w.add(...b.statements());
        await w.run(trx);
      }
    });
    return t.db('tb_views').orderBy('k');
  };
  /** Every write of the scenario, each given a batch: run one at a time or all folded into one. */
  const scenario: ((b: TableBatch) => void)[] = [
    (b) => b.insert({ k: 'inserted-before', owner: M1, vis: 'private', name: 'new' }),
    (b) => b.patch({ k: 'renamed-before' }, { name: 'b' }),
    (b) => b.patch({ k: 'published-before' }, { vis: 'workspace' }),
    (b) => b.patch({ k: 'taken-before' }, { vis: 'private', owner: M1 }),
    (b) => b.patch({ k: 'shared-renamed' }, { name: 'b' }),
    (b) => b.deleteWhere({ owner: M1, vis: 'private' }),
    (b) => b.patch({ k: 'renamed-after' }, { name: 'c' }),
    (b) => b.patch({ k: 'shared-renamed' }, { name: 'c' }),
    (b) => b.insert({ k: 'inserted-after', owner: M1, vis: 'private', name: 'new' }),
  ];

  before(async () => {
    t = await createTestDb('table_batch_where');
    await t.db.raw('CREATE TABLE tb_views (k text PRIMARY KEY, owner uuid NOT NULL, vis text NOT NULL, name text)');
  });
  beforeEach(async () => {
    await t.db('tb_views').del();
    await t.db('tb_views').insert(stored);
  });
  after(async () => t.drop());

  it('leaves, folded into one statement, the rows the writes leave one at a time', async () => {
    const oneAtATime = await run(
      scenario.map((write) => {
        const b = new TableBatch(VIEWS);
        write(b);
        return b;
      }),
    );
    expect(oneAtATime.map((r) => `${r.k}:${r.name}`)).to.deep.equal(['inserted-after:new', 'others:a', 'published-before:a', 'shared:a', 'shared-renamed:c']);
    await t.db('tb_views').del();
    await t.db('tb_views').insert(stored);
    const b = new TableBatch(VIEWS);
    for (const write of scenario) write(b);
    expect(await run([b])).to.deep.equal(oneAtATime);
  });

  it('refuses a match on a column the batch changes by a delta (its value is not known)', () => {
    const b = new TableBatch({ table: 'tb_items', key: ['k'], columns: { k: 'text', n: 'int' } });
    b.patch({ k: 'x' }, {}, { n: 1 });
    expect(() => b.deleteWhere({ n: 1 })).to.throw(/delta/);
  });
});
