// The bench harness cannot rot: its quick mode runs end to end here, against a
// fresh database of its own. Only completion and the shape of the result are
// checked; no figure is compared with anything (timings do not belong in tests).
// A few minutes, so not part of `npm test` (outside test/, which mocha's default spec
// covers): `npm run bench:smoke` runs it, and .ci/run runs that as its own step.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createTestDb, type TestDb } from '../test/support/db.js';
import { testEventStoreUrl } from '../test/support/event-store.js';
import { childEnv, exitWithin, spawnNode } from '../test/support/process.js';

interface ResultRow {
  scenario: string;
  ours: unknown;
  baseline: unknown;
  baselineLabel: string;
  status: string;
  note?: string;
}

describe('bench: npm run bench -- --quick (smoke, no timing assertions)', function () {
  this.timeout(480_000);
  this.slow(120_000);
  let testDb: TestDb;
  let dir: string;

  before(async () => {
    testDb = await createTestDb('bench');
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-bench-'));
  });

  after(async () => {
    await testDb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('runs every scenario and writes a numeric figure and baseline for each row', async () => {
    const out = path.join(dir, 'result.json');
    const p = spawnNode(
      'bench/run.ts',
      ['--quick', '--out', out],
      // Never a server here, whatever the environment: this is the run CI makes, whose rows are all on Postgres.
      childEnv({
        DATABASE_URL: testDb.url,
        EVENTSTORE_URL: undefined,
        BENCH_DATA_DIR: dir,
        BENCH_RESULTS_DIR: path.join(dir, 'results'),
        BENCH_LOG_LEVEL: 'warn',
      }),
    );
    // About 100 s on a quiet machine before the email hostile row (60 MB of mail in full, about 6 MB quick); 241 s
    // with it beside other suites on the same 2 cores. A hang guard, not a speed check.
    const exit = await exitWithin(p, 420_000, 'npm run bench -- --quick');
    expect(exit.code, p.tail()).to.equal(0);

    const result = JSON.parse(await readFile(out, 'utf8')) as {
      mode: string;
      node: string;
      postgres: string;
      service_mode: string;
      expected_rows: string[];
      eventstoredb: unknown;
      rows: ResultRow[];
    };
    expect(result.mode).to.equal('quick');
    // Without a server, no row on EventStoreDB is expected or made.
    expect(result.eventstoredb).to.equal(null);
    expect(result.rows.filter((r) => r.scenario.endsWith('(eventstoredb)'))).to.deep.equal([]);
    // By default the bench measures what production runs: the compiled build.
    expect(result.service_mode).to.equal('compiled');
    expect(result.node).to.match(/^v\d+/);
    expect(result.postgres).to.match(/PostgreSQL \d+/);
    expect(result.expected_rows).to.include.members([
      'read',
      'write',
      'memory',
      'cpu per write',
      'reply',
      'inbound',
      'deep-page',
      'append',
      'rebuild',
      'webhook',
    ]);
    for (const name of result.expected_rows) {
      const rows = result.rows.filter((r) => r.scenario === name);
      expect(rows, `row ${name} is missing\n${p.tail()}`).to.not.be.empty;
      for (const r of rows) {
        expect(r.status, `${name}: ${r.note ?? ''}`).to.not.be.oneOf(['error', 'n/a']);
        expect(r.ours, `${name}: our figure`).to.be.a('number').and.satisfy(Number.isFinite);
        if (r.baselineLabel) expect(r.baseline, `${name}: baseline`).to.be.a('number').and.satisfy(Number.isFinite);
      }
    }
    expect(p.stdout()).to.include('| scenario');
    expect(p.stdout()).to.match(/^service: compiled: /m);
    // A clean shutdown: no stack traces from pools closed under pending work.
    expect(p.stderr(), p.tail()).to.not.match(/Acquire connection error|Error: aborted/);
  });

  // Only where a server is given (TEST_EVENT_STORE=eventstoredb with EVENTSTORE_URL, or EVENTSTORE_URL alone): no
  // npm package provides one, so CI's run has no such case (not a skipped one).
  const server = testEventStoreUrl() ?? (process.env.EVENTSTORE_URL?.trim() || null);
  if (server) {
    it('with --eventstoredb, measures the append, write and reply rows on both stores against the same baselines', async () => {
      const out = path.join(dir, 'result-eventstoredb.json');
      const p = spawnNode(
        'bench/run.ts',
        ['append', 'write', 'reply', '--quick', '--eventstoredb', server, '--out', out],
        childEnv({
          DATABASE_URL: testDb.url,
          EVENTSTORE_URL: undefined,
          BENCH_DATA_DIR: dir,
          BENCH_RESULTS_DIR: path.join(dir, 'results'),
          BENCH_LOG_LEVEL: 'warn',
        }),
      );
      const exit = await exitWithin(p, 420_000, 'npm run bench -- append write reply --quick --eventstoredb');
      expect(exit.code, p.tail()).to.equal(0);
      const result = JSON.parse(await readFile(out, 'utf8')) as { expected_rows: string[]; eventstoredb: { version: string } | null; rows: ResultRow[] };
      expect(result.eventstoredb?.version, 'the server version').to.match(/^\d+\.\d+/);
      const onServer = result.expected_rows.filter((n) => n.endsWith(' (eventstoredb)'));
      expect(onServer).to.include.members(['append (eventstoredb)', 'write (eventstoredb)', 'cpu per write (eventstoredb)', 'reply (eventstoredb)']);
      for (const name of onServer) {
        const [r] = result.rows.filter((x) => x.scenario === name);
        const twin = result.rows.find((x) => x.scenario === name.replace(/ \(eventstoredb\)$/, ''));
        expect(r, `row ${name} is missing\n${p.tail()}`).to.not.equal(undefined);
        expect(twin, `the Postgres row beside ${name}`).to.not.equal(undefined);
        // Informational, with the very baseline its Postgres row has (one measurement, so the ratios compare).
        expect(r!.status, `${name}: ${r!.note ?? ''}`).to.equal('info');
        expect(r!.ours, `${name}: our figure`).to.be.a('number').and.satisfy(Number.isFinite);
        expect(r!.baseline, `${name}: baseline`).to.equal(twin!.baseline);
      }
      expect(p.stderr(), p.tail()).to.not.match(/Acquire connection error|Error: aborted/);
    });
  }
});

describe('bench: npm run bench:interleave (smoke, no timing assertions)', function () {
  this.timeout(300_000);
  this.slow(120_000);
  let testDb: TestDb;
  let dir: string;

  before(async () => {
    testDb = await createTestDb('interleave');
    dir = await mkdtemp(path.join(os.tmpdir(), 'cs-interleave-'));
  });

  after(async () => {
    await testDb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('builds, starts and loads both sides, and prints a ratio a round for each row', async () => {
    // This commit against itself, one round of a second: the other side is a worktree of HEAD, built and
    // bootstrapped by its own checkout as another commit would be; with a setting on one side only.
    const p = spawnNode(
      'bench/interleave.ts',
      ['HEAD', '--rounds', '1', '--burst', '1', '--env-other', 'AUDIT_CHAIN=off'],
      childEnv({ DATABASE_URL: testDb.url, EVENTSTORE_URL: undefined, BENCH_DATA_DIR: dir }),
    );
    const exit = await exitWithin(p, 240_000, 'npm run bench:interleave -- HEAD --rounds 1 --burst 1');
    expect(exit.code, p.tail()).to.equal(0);
    const out = p.stdout();
    expect(out, p.tail()).to.match(/other: [0-9a-f]{12} \(.*\) with AUDIT_CHAIN=off/);
    for (const row of ['CPU ms, all three', 'service ms', 'its workers ms', 'Postgres backends ms', 'answers a second']) {
      const line = out.split('\n').find((l) => l.startsWith(`| ${row} |`));
      expect(line, `row ${row}\n${p.tail()}`).to.not.equal(undefined);
      const cells = line!.split('|').map((c) => c.trim());
      // | name | this | other | per round | median |: numbers, whatever they are
      for (const c of [cells[2], cells[3], cells[4], cells[5]!.replace(/\*/g, '')]) expect(Number(c), `${row}: ${line}`).to.satisfy(Number.isFinite);
    }
  });
});
