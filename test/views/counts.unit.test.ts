// The counts statement and the body probe it may need: taken again until both saw the same log position.
import { expect } from 'chai';
import type { Knex } from 'knex';
import { viewCounts } from '../../src/capabilities/conversations/conversations.search.js';

const T = '11111111-2222-4333-8444-555555555555';
const ME = '6f1c1e7a-3b7e-4c7a-9a55-0a1b2c3d4e5f';
const C1 = '0e9f8a7b-6c5d-4e3f-8a1b-2c3d4e5f6a7b';

function fakes(probeSeqs: number[], statementSeq: number) {
  const statements: { sql: string; bindings: unknown[] }[] = [];
  let probes = 0;
  const db = {
    raw: async (sql: string, bindings: unknown[]) => {
      statements.push({ sql, bindings });
      const cols = Object.fromEntries([...sql.matchAll(/AS (c\d+)/g)].map((m) => [m[1], 3]));
      return { rows: [{ as_of_seq: String(statementSeq), ...cols }] };
    },
  } as unknown as Knex;
  const lookup = {
    raw: async () => ({ rows: [{ seq: String(probeSeqs[Math.min(probes++, probeSeqs.length - 1)]), ids: [C1] }] }),
  };
  return { db, lookup, statements, probes: () => probes };
}

describe('view counts (unit)', () => {
  const withBody = [{ id: C1, name: 'Refunds', query: { field: 'body', operator: '~', value: 'refund' } }];

  it('is one statement: every view a FILTERed count, the checkpoint read with them', async () => {
    const f = fakes([7], 7);
    const r = await viewCounts(f.db, f.lookup, T, ME, withBody);
    expect(f.statements).to.have.length(1);
    expect(f.statements[0]!.sql).to.match(
      /^SELECT \(SELECT COALESCE\(max\(last_seq\), 0\) FROM projection_checkpoints WHERE tenant_id = \?::uuid\) AS as_of_seq, count\(\*\) FILTER \(WHERE /,
    );
    expect((f.statements[0]!.sql.match(/count\(\*\) FILTER/g) ?? []).length).to.equal(7);
    expect(r.as_of_seq).to.equal(7);
    expect(r.data.map((d) => `${d.id}:${d.kind}`)).to.deep.equal([
      'open:builtin',
      'unassigned:builtin',
      'assigned_to_me:builtin',
      'snoozed:builtin',
      'closed:builtin',
      'all:builtin',
      `${C1}:custom`,
    ]);
  });

  it('takes the counts again when a write landed between the body probe and the statement', async () => {
    const f = fakes([6, 7], 7);
    const r = await viewCounts(f.db, f.lookup, T, ME, withBody);
    expect(f.statements).to.have.length(2);
    expect(f.probes()).to.equal(2);
    expect(r.as_of_seq).to.equal(7);
  });

  it('after three tries, counts without probes (one statement, consistent by construction)', async () => {
    const f = fakes([1, 2, 3, 4], 9);
    await viewCounts(f.db, f.lookup, T, ME, withBody);
    expect(f.probes()).to.equal(3);
    expect(f.statements).to.have.length(4);
    expect(f.statements[3]!.sql).to.include('conversations.id IN (SELECT p.conversation_id FROM conversation_parts p');
  });
});
