// What `npm test` runs: mocha's default spec (.mocharc.cjs) leaves the bench smoke
// test (about 100 s) out; `npm run bench:smoke` runs it, and CI runs that as a step.
// It leaves the system tier (*.system.test.ts: Debian programs) out too; `npm run
// test:system` runs just that, and CI runs it after npm test. And the server tier
// (*.server.test.ts: a running EventStoreDB): `npm run test:eventstoredb`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Files under dir (relative to ROOT) whose name ends in suffix. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name), suffix) : e.name.endsWith(suffix) ? [path.join(dir, e.name)] : [],
  );
}

describe('test tiers (unit)', () => {
  it('npm test leaves the bench smoke test out; npm run bench:smoke runs it, and .ci/run runs that', () => {
    // The spec of a bare `mocha` (npm test): .mocharc.cjs read as a run without file arguments reads it.
    const spec = JSON.parse(
      execFileSync(process.execPath, ['-p', 'JSON.stringify(require("./.mocharc.cjs").spec)'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, TEST_TIER: '' },
      }),
    ) as string[];
    // Every test file under test/ but the system and server tiers' (the longest-running first, see .mocharc.cjs),
    // once; nothing from bench/.
    const system = filesUnder('test', '.system.test.ts');
    const server = filesUnder('test', '.server.test.ts');
    expect(system.length, 'the system tier').to.be.at.least(4);
    expect(server.length, 'the server tier').to.be.at.least(1);
    expect([...spec].sort()).to.deep.equal(
      filesUnder('test', '.test.ts')
        .filter((f) => !system.includes(f) && !server.includes(f))
        .sort(),
    );
    expect(spec.slice(0, 3).every((f) => f.startsWith(path.join('test', 'process')))).to.equal(true);
    const self = path.relative(ROOT, fileURLToPath(import.meta.url));
    const runBench = filesUnder('test', '.test.ts').filter((f) => f !== self && readFileSync(path.join(ROOT, f), 'utf8').includes("'bench/run.ts'"));
    expect(runBench, 'a test under test/ runs the bench').to.deep.equal([]);

    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['bench:smoke']).to.equal('mocha bench/smoke.test.ts');
    expect(existsSync(path.join(ROOT, 'bench/smoke.test.ts'))).to.equal(true);
    expect(readFileSync(path.join(ROOT, 'bench/smoke.test.ts'), 'utf8')).to.match(/spawnNode\(\s*'bench\/run.ts',\s*\['--quick'/);
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8').split('\n');
    expect(ci).to.include('npm test');
    expect(ci).to.include('npm run -s bench:smoke');
    // The system tier runs in CI after npm test, and only the system tier's files run there.
    expect(ci.indexOf('npm run test:system')).to.be.above(ci.indexOf('npm test'));
    expect(pkg.scripts['test:system']).to.match(/^bash scripts\/system-packages\.sh tests && TEST_TIER=system mocha$/);
    const systemSpec = JSON.parse(
      execFileSync(process.execPath, ['-p', 'JSON.stringify(require("./.mocharc.cjs").spec)'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, TEST_TIER: 'system' },
      }),
    ) as string[];
    expect([...systemSpec].sort()).to.deep.equal([...system].sort());
    expect(pkg.scripts['test:eventstoredb']).to.equal('TEST_TIER=server mocha');
    // No test outside the system tier runs a Debian program that npm does not bring.
    for (const f of filesUnder('test', '.ts').filter(
      (f) => !f.endsWith('.system.test.ts') && f !== self && !f.endsWith('swaks.ts') && !f.endsWith('system.ts'),
    )) {
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      expect(text, f).not.to.match(/['"](swaks|postfix|postconf|\/usr\/bin\/chromium|\/usr\/bin\/promtool|openssl|nginx|haproxy|patroni)['"]/);
    }
  });

  it('CI needs no EventStoreDB server: .ci/run runs neither the server tier nor the EventStoreDB failover run', () => {
    // No npm package has a server (docs/eventstoredb.md); both run by hand against one.
    const ci = readFileSync(path.join(ROOT, '.ci/run'), 'utf8')
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('#'));
    expect(ci).to.include('npm run -s failover');
    expect(ci.filter((l) => /--eventstoredb|test:eventstoredb|EVENTSTORE_URL|TEST_EVENT_STORE/.test(l))).to.deep.equal([]);
  });
});
