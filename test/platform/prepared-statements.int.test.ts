// Hot statements go to Postgres as named prepared statements (src/platform/db/prepared.ts):
// chosen by use, invisible to the code that builds them, and a schema change
// under a running pool costs one failed statement, not a broken one.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createDb } from '../../src/platform/db/database.js';
import { PREPARE_AFTER } from '../../src/platform/db/prepared.js';
import { createTestDb, type TestDb } from '../support/db.js';

describe('prepared statements (Postgres)', () => {
  let t: TestDb;
  let db: Knex;
  // One connection, so pg_prepared_statements is the pool's whole view.
  const prepared = async (): Promise<string[]> =>
    (await db.raw('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time')).rows.map((r: { statement: string }) => r.statement);

  beforeEach(async () => {
    t = await createTestDb('prepared');
    db = createDb(t.url, { max: 1 });
    await db.raw('CREATE TABLE prep_probe (id int PRIMARY KEY, label text)');
    await db.raw("INSERT INTO prep_probe VALUES (1, 'one'), (2, 'two')");
  });
  afterEach(async () => {
    await db.destroy();
    await t.drop();
  });

  it('names a parameterised statement once it repeats, and answers the same through it', async () => {
    const answers: unknown[] = [];
    for (let i = 0; i < PREPARE_AFTER + 3; i++) answers.push(await db('prep_probe').where({ id: 1 }).first('label'));
    expect(answers.every((a) => (a as { label: string }).label === 'one')).to.equal(true);
    expect(await prepared()).to.deep.equal(['select "label" from "prep_probe" where "id" = $1 limit $2']);
    // A one-off statement, and statements without parameters, are not kept.
    await db('prep_probe').where({ label: 'two' }).first('id');
    await db.raw('SELECT 1');
    expect(await prepared()).to.have.length(1);
  });

  it('inside a transaction too, and with the same answers as an unnamed pool', async () => {
    const plain = createDb(t.url, { max: 1, prepare: false });
    try {
      for (let i = 0; i < PREPARE_AFTER + 3; i++) {
        const ours = await db.transaction((trx) => trx('prep_probe').whereIn('id', [1, 2]).orderBy('id').select('*'));
        const theirs = await plain('prep_probe').whereIn('id', [1, 2]).orderBy('id').select('*');
        expect(ours).to.deep.equal(theirs);
      }
      expect(await prepared()).to.have.length(1);
      expect((await plain.raw('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0].n).to.equal(0);
    } finally {
      await plain.destroy();
    }
  });

  it('after a schema change, a statement whose result type changed fails once, then runs unnamed', async () => {
    const read = () => db('prep_probe').where({ id: 2 }).select('*');
    for (let i = 0; i < PREPARE_AFTER + 3; i++) await read();
    await db.raw('ALTER TABLE prep_probe ADD COLUMN extra text');
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      try {
        const rows = await read();
        outcomes.push(Object.keys(rows[0]).join(','));
      } catch (e) {
        outcomes.push(`error ${(e as { code?: string }).code}`);
      }
    }
    expect(outcomes).to.deep.equal(['error 0A000', 'id,label,extra', 'id,label,extra']);
  });
});
