// Tiers by suffix: *.unit.test.ts (pure), *.int.test.ts (real Postgres), *.e2e.test.ts (HTTP end to end).
// `npm test` runs all of them against one embedded Postgres started by the global fixture.
module.exports = {
  'node-option': ['import=tsx'],
  require: ['test/support/global-fixture.ts'],
  // `npx mocha path/to/file.test.ts` runs just that file; bare `npx mocha` (npm test) runs everything.
  spec: process.argv.slice(2).some((a) => a.endsWith('.test.ts')) ? [] : ['test/**/*.test.ts'],
  timeout: 30000,
  slow: 2000,
  reporter: 'spec',
  exit: true,
};
