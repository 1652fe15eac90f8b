// Tiers by suffix: *.unit.test.ts (pure: no database, no network), *.int.test.ts
// (real Postgres), *.e2e.test.ts (HTTP end to end, processes). `npm test` runs
// all of them against one embedded Postgres started by the global fixture;
// `npm run test:unit` (TEST_TIER=unit) starts none.
const tier = process.env.TEST_TIER;
const explicit = process.argv.slice(2).some((a) => a.endsWith('.test.ts'));
module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/support/global-fixture.ts'],
  // `npx mocha path/to/file.test.ts` runs just that file; bare `npx mocha` (npm test) runs everything.
  spec: explicit ? [] : [tier ? `test/**/*.${tier}.test.ts` : 'test/**/*.test.ts'],
  // The whole suite runs its files two at a time (TEST_JOBS to change): most of a file's time is spent waiting on
  // Postgres, child processes and sockets, so two files share 2 cores well. Every file has its own database cloned
  // from the template (test/support/db.ts) and listens on ports the system picks. A file named on the command line
  // runs alone, in order, its output as it goes.
  parallel: !explicit,
  jobs: Number(process.env.TEST_JOBS ?? 2),
  timeout: tier === 'unit' ? 5000 : 30000,
  slow: tier === 'unit' ? 100 : 2000,
  reporter: 'spec',
  exit: true,
};
