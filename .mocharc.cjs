// Tiers by suffix: *.unit.test.ts (pure: no database, no network), *.int.test.ts
// (real Postgres), *.e2e.test.ts (HTTP end to end, processes). `npm test` runs
// all of them against one embedded Postgres started by the global fixture, and
// needs nothing but Node and npm; `npm run test:unit` (TEST_TIER=unit) starts no
// Postgres. *.system.test.ts are the interop checks against Debian programs
// (Postfix, swaks, Chromium, promtool): only `npm run test:system`
// (TEST_TIER=system) runs them, after scripts/system-packages.sh has made sure
// the programs are there. *.server.test.ts need an EventStoreDB server (no npm
// package has one): only `npm run test:eventstoredb` (TEST_TIER=server, with
// EVENTSTORE_URL) runs them.
const fs = require('node:fs');
const path = require('node:path');
const tier = process.env.TEST_TIER;
const explicit = process.argv.slice(2).some((a) => a.endsWith('.test.ts'));

/**
 * Every test file of the tier, the longest first: parallel workers take files in this order, so the files that
 * run for minutes (child processes killed and restarted, then end-to-end HTTP) start at once instead of being
 * the tail of the run, and the quick ones fill in around them.
 */
function testFiles() {
  const all = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (tier ? e.name.endsWith(`.${tier}.test.ts`) : e.name.endsWith('.test.ts') && !/\.(system|server)\.test\.ts$/.test(e.name)) all.push(p);
    }
  };
  walk('test');
  const rank = (f) => (f.startsWith(path.join('test', 'process')) ? 0 : f.endsWith('.e2e.test.ts') ? 1 : f.endsWith('.int.test.ts') ? 2 : 3);
  return all.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/support/global-fixture.ts'],
  // `npx mocha path/to/file.test.ts` runs just that file; bare `npx mocha` (npm test) runs everything.
  spec: explicit ? [] : testFiles(),
  // The whole suite runs its files three at a time (TEST_JOBS to change): most of a file's time is spent waiting on
  // Postgres, child processes and sockets: two at a time kept 2 cores about 70 % busy, and three were faster (mocha
  // alone, back to back: 419 s two at a time, 404 s three). Every file has its own database cloned from the
  // template (test/support/db.ts) and listens on ports the system picks. A file named on the command line runs alone,
  // in order, its output as it goes.
  parallel: !explicit,
  jobs: Number(process.env.TEST_JOBS ?? 3),
  // Timeouts are hang guards, not speed checks (a test waits for a cause, never for a time): sized, like every
  // this.timeout() in test/, for a machine several times busier than CI (a CPU hog on one core and other suites
  // beside it), where tests that take 10 s idle took 30 to 60 s.
  timeout: tier === 'unit' ? 5000 : 90_000,
  slow: tier === 'unit' ? 100 : 2000,
  reporter: 'spec',
  exit: true,
};
