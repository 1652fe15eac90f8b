// bench/tools/cpuprofile.ts: what profile-summary and profile-diff read of a V8
// CPU profile. A profile written by hand, so every figure is known: self time by
// module and function, totals with each function counted once per sample however
// deep it recursed, idle left out, a window of seconds, and the division by requests.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadProfile, perRequest, ROOT, shortUrl, type Profile } from '../../bench/tools/cpuprofile.js';

// V8 numbers lines from 0, and gives its own entries (the root, idle) -1.
const frame = (functionName: string, url = '', lineNumber = url ? 9 : -1) => ({ functionName, url, lineNumber });

// (root) → (idle); (root) → handle (express) → render (src) → handle again (a recursion).
const profile: Profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('handle', 'file:///app/node_modules/express/lib/router.js'), children: [4] },
    { id: 4, callFrame: frame('render', 'file:///app/src/api/routes.js'), children: [5] },
    { id: 5, callFrame: frame('handle', 'file:///app/node_modules/express/lib/router.js') },
  ],
  startTime: 0,
  endTime: 1500,
  // at 100, 300, 600, 1000 and 1500 µs
  samples: [2, 3, 4, 5, 4],
  timeDeltas: [100, 200, 300, 400, 500],
};

describe('bench CPU profiles (unit)', () => {
  let file: string;
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'cs-cpuprofile-'));
    file = path.join(dir, 'p.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const handle = 'handle  express/lib/router.js:10';
  const render = 'render  src/api/routes.js:10';

  it('divides self time by the requests, by module and by function, idle left out', () => {
    const p = loadProfile(file);
    expect(Object.fromEntries(perRequest(p, 2, 'module'))).to.deep.equal({ express: 300, 'src/api/routes.js': 400 });
    expect(Object.fromEntries(perRequest(p, 2, 'function'))).to.deep.equal({ [handle]: 300, [render]: 400 });
  });

  it('counts a function once in a sample whose stack holds it twice', () => {
    const totals = perRequest(loadProfile(file), 2, 'total');
    // handle: 200 + 300 + 400 + 500 (the recursion's sample once), render: 300 + 400 + 500, the root: every busy sample
    expect(totals.get(handle)).to.equal(700);
    expect(totals.get(render)).to.equal(600);
    expect(totals.get(ROOT)).to.equal(700);
  });

  it('keeps the samples of the window asked for', () => {
    const p = loadProfile(file, 0.0004, 0.0012);
    expect(Object.fromEntries(perRequest(p, 1, 'function'))).to.deep.equal({ [render]: 300, [handle]: 400 });
    expect(p.wallUs).to.equal(800);
  });

  it("names a compiled build's files by their path inside it, and a nested package by its own name", () => {
    expect(shortUrl('file:///work/main/bench/.build/c5f6144a40e2d50a/eventstore/forgettable.js')).to.equal('eventstore/forgettable.js');
    expect(shortUrl('file:///app/node_modules/knex/node_modules/pg/lib/client.js')).to.equal('pg/lib/client.js');
    expect(shortUrl('node:events')).to.equal('node:events');
  });
});
