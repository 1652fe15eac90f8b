// docs/architecture.md's capability table is generated from the module list (scripts/lib/capabilities-doc.ts), as
// docs/events.md is from the catalogue: a capability added, renamed, given an event, a route, a table, an import or
// an addition without `npm run docs:capabilities` fails here.
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { modules } from '../../src/capabilities/index.js';
import { renderCapabilityTable, withCapabilityTable } from '../../scripts/lib/capabilities-doc.js';

describe('the capability table of docs/architecture.md (unit)', () => {
  it('is what the modules generate (run `npm run docs:capabilities`)', async () => {
    const committed = await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    expect(withCapabilityTable(committed) === committed, 'docs/architecture.md: the capability table is stale: run npm run docs:capabilities').to.equal(true);
  });

  it('has a row per module, in the composition root order, and changes when a module does', () => {
    const table = renderCapabilityTable();
    const names = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(names).to.deep.equal(modules.map((m) => m.name));
    // One module changed (an event fewer): its row, and so the table, is not the committed one any more.
    const changed = modules.map((m) => (m.name === 'conversations' ? { ...m, events: m.events.slice(1) } : m));
    expect(renderCapabilityTable(changed)).to.not.equal(table);
  });
});
