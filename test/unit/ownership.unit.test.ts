// Capabilities read each other's data only through the owner's read functions
// (exported by its index.ts), never by naming its tables. Every table belongs
// to one module: its projectors' tables and the tables it keeps beside the log.
import { expect } from 'chai';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { modules } from '../../src/capabilities/index.js';

const root = fileURLToPath(new URL('../../src/capabilities/', import.meta.url));

describe('table ownership (unit)', () => {
  it('no capability names a table another capability owns', async () => {
    const owner = new Map<string, string>();
    for (const m of modules) {
      for (const t of [...(m.projectors ?? []).flatMap((p) => p.tables), ...(m.tables ?? [])]) {
        expect(owner.has(t), `${t} is owned by ${owner.get(t)} and ${m.name}`).to.equal(false);
        owner.set(t, m.name);
      }
    }
    const trespass: string[] = [];
    for (const m of modules) {
      const dir = path.join(root, m.name);
      for (const f of (await readdir(dir)).filter((f) => f.endsWith('.ts'))) {
        const src = await readFile(path.join(dir, f), 'utf8');
        for (const table of tablesNamed(src)) {
          const o = owner.get(table);
          if (o && o !== m.name) trespass.push(`${m.name}/${f} names ${table} (owned by ${o})`);
        }
      }
    }
    expect([...new Set(trespass)]).to.deep.equal([]);
  });

  it('no lower layer (dispatch, api, commands, projections, eventstore) names a table a capability owns: what it needs is handed in', async () => {
    const owner = new Map<string, string>();
    for (const m of modules) for (const t of [...(m.projectors ?? []).flatMap((p) => p.tables), ...(m.tables ?? [])]) owner.set(t, m.name);
    const trespass: string[] = [];
    for (const layer of ['dispatch', 'api', 'commands', 'projections', 'eventstore']) {
      const dir = fileURLToPath(new URL(`../../src/${layer}/`, import.meta.url));
      for (const f of (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.ts'))) {
        for (const table of tablesNamed(await readFile(path.join(dir, f), 'utf8'))) {
          const o = owner.get(table);
          if (o) trespass.push(`${layer}/${f} names ${table} (owned by ${o})`);
        }
      }
    }
    expect([...new Set(trespass)]).to.deep.equal([]);
  });
});

/** Tables named in queries: db('t'), trx('t as x'), .join('t'), FROM t, INTO t, UPDATE t, JOIN t. */
function tablesNamed(src: string): string[] {
  const named = /(?:\b(?:db|trx|tx)\(\s*|\.join\(\s*)['"`]([a-z_]+)|\b(?:FROM|INTO|UPDATE|JOIN)\s+([a-z_]+)/gi;
  return [...src.matchAll(named)].map(([, a, b]) => (a ?? b)!);
}
