// Every read-model table spec (the columns a projector writes, with their
// Postgres types, which of them take NULL, and its key) against the real table
// the migrations made: a column renamed, retyped, made nullable or dropped in
// one place and not the other fails here, not in the first projection pass
// that writes it, nor in a row type (RowOf) that says less than the table.
import { expect } from 'chai';
import '../../src/capabilities/index.js'; // each capability declares its specs when it loads
import { declaredTableSpecs } from '../../src/projections/table-batch.js';
import { createTestDb, type TestDb } from '../support/db.js';

describe('table specs match the migrated tables (int)', () => {
  let t: TestDb;
  before(async () => (t = await createTestDb('table_specs')));
  after(async () => t.drop());

  it('declares specs for the read models', () => {
    expect(declaredTableSpecs().length).to.be.greaterThan(15);
  });

  it('each spec column exists with the declared type, and each key is the primary key or a unique index', async () => {
    const problems: string[] = [];
    for (const spec of declaredTableSpecs()) {
      const cols = (
        await t.db.raw(
          `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable
             FROM pg_attribute a WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped`,
          [spec.table],
        )
      ).rows as { name: string; type: string; nullable: boolean }[];
      if (cols.length === 0) {
        problems.push(`${spec.table}: no such table`);
        continue;
      }
      const actual = new Map(cols.map((c) => [c.name, c.type]));
      for (const [name, declared] of Object.entries(spec.columns)) {
        // The declared type in Postgres's own spelling (timestamptz → timestamp with time zone).
        const canonical = (await t.db.raw('SELECT ?::regtype::text AS type', [declared])).rows[0].type as string;
        if (!actual.has(name)) problems.push(`${spec.table}.${name}: declared ${declared}, no such column`);
        else if (actual.get(name) !== canonical) problems.push(`${spec.table}.${name}: declared ${declared}, the table has ${actual.get(name)}`);
      }
      // The spec's nullable columns are exactly the table's (among the columns it declares): RowOf's `| null`.
      const nullable = cols.filter((c) => c.nullable && c.name in spec.columns).map((c) => c.name);
      const declaredNullable = [...(spec.nullable ?? [])];
      for (const n of declaredNullable) if (!(n in spec.columns)) problems.push(`${spec.table}: nullable column ${n} is not among its columns`);
      if ([...nullable].sort().join(',') !== [...declaredNullable].sort().join(','))
        problems.push(`${spec.table}: nullable [${[...nullable].sort().join(', ')}], the spec says [${[...declaredNullable].sort().join(', ')}]`);
      for (const k of spec.key) if (!(k in spec.columns)) problems.push(`${spec.table}: key column ${k} is not among its columns`);
      // Each index's columns in index order, whether it is unique (and whole: no WHERE).
      const indexes = (
        await t.db.raw(
          `SELECT (SELECT array_agg(a.attname::text ORDER BY k.n) FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
                     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) AS cols,
                  i.indisunique AND i.indpred IS NULL AS unique
             FROM pg_index i WHERE i.indrelid = to_regclass(?)`,
          [spec.table],
        )
      ).rows as { cols: string[]; unique: boolean }[];
      const key = [...spec.key].sort().join(',');
      if (spec.matches === 'many') {
        // A delete by the key: some index leads with the key's columns.
        if (!indexes.some((i) => [...i.cols.slice(0, spec.key.length)].sort().join(',') === key))
          problems.push(`${spec.table}: no index leads with its key (${spec.key.join(', ')})`);
      } else if (!indexes.some((i) => i.unique && [...i.cols].sort().join(',') === key)) {
        problems.push(`${spec.table}: key (${spec.key.join(', ')}) is neither the primary key nor a unique index`);
      }
    }
    expect(problems).to.deep.equal([]);
  });
});
