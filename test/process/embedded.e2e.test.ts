// The embedded default, as an operator meets it: no DATABASE_URL, one DATA_DIR.
// The service starts Postgres there and stops it on SIGTERM; data survives a
// restart; the CLI attaches to the service's Postgres while it runs, and starts
// and stops its own when it does not.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'chai';
import { childEnv, exitWithin, processAlive, runCli, signInOver, spawnService, type ServiceProcess } from '../support/process.js';

/** The postmaster's pid from DATA_DIR/pg/postmaster.pid, when the file is there. */
function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** No Postgres left running on `dataDir`: no postmaster.pid, or one naming a dead process. */
function expectNoPostmaster(dataDir: string, context: string): void {
  const pid = postmasterPid(dataDir);
  if (pid !== null) expect(processAlive(pid), `${context}: postmaster ${pid} still running on ${dataDir}`).to.equal(false);
}

async function waitDead(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (processAlive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** Last-resort cleanup: an immediate shutdown of a postmaster this test left behind. */
async function stopLeftoverPostgres(dataDir: string): Promise<void> {
  const pid = postmasterPid(dataDir);
  if (pid === null || !processAlive(pid)) return;
  try {
    process.kill(pid, 'SIGQUIT'); // Postgres' "immediate shutdown"
  } catch {
    return;
  }
  if (!(await waitDead(pid, 15_000))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    // the backends of a SIGKILLed postmaster notice and exit; reap them too
    await new Promise<void>((resolve) =>
      spawn('pkill', ['-KILL', '-P', String(pid)])
        .on('close', () => resolve())
        .on('error', () => resolve()),
    );
  }
}

describe('process: embedded Postgres (no DATABASE_URL)', function () {
  this.timeout(480_000);

  let dataDir: string;
  const started: ServiceProcess[] = [];
  const vars = () => ({ DATA_DIR: dataDir, DATABASE_URL: undefined, LOG_LEVEL: 'warn' });
  const start = async () => {
    const s = await spawnService(vars(), { readyTimeoutMs: 90_000 });
    started.push(s);
    return s;
  };
  const stop = async (s: ServiceProcess) => {
    s.kill('SIGTERM');
    const exit = await exitWithin(s, 60_000, 'service after SIGTERM');
    expect(exit, `service did not stop cleanly\n${s.tail()}`).to.deep.equal({ code: 0, signal: null });
  };

  const email = 'owner@embedded.example.com';
  const password = 'correct horse battery';
  let workspaceId = '';

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cs-embedded-'));
  });

  after(async () => {
    for (const s of started) {
      if (s.hasExited()) continue;
      s.kill('SIGKILL');
      await s.exited;
    }
    if (dataDir) {
      await stopLeftoverPostgres(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('starts Postgres in DATA_DIR, serves, lets the CLI attach, and stops Postgres on SIGTERM', async () => {
    const s = await start();
    expect((await s.client.get('/healthz')).status).to.equal(200);
    const ready = await s.client.get('/readyz');
    expect(ready.status, ready.text).to.equal(200);
    const pid = postmasterPid(dataDir);
    expect(pid, 'no postmaster.pid in DATA_DIR/pg').to.be.a('number');
    expect(processAlive(pid!)).to.equal(true);

    // The CLI attaches to the running cluster (it must not start a second one, nor stop this one).
    const cli = await runCli(
      ['workspace', 'create', '--name', 'Embedded Co', '--owner-email', email, '--owner-password', password],
      childEnv({ ...vars(), LOG_LEVEL: 'debug' }),
    );
    expect(cli.exit.code, `cli failed\n${cli.stderr}\n${cli.stdout}`).to.equal(0);
    expect(cli.json).to.include({ name: 'Embedded Co', owner_email: email });
    workspaceId = cli.json.workspace_id;
    expect(cli.stderr).to.include('attaching to the embedded Postgres');
    expect(postmasterPid(dataDir)).to.equal(pid);
    expect(processAlive(pid!), "the CLI stopped the service's Postgres").to.equal(true);

    const session = await signInOver(s.client, email, password);
    expect(session.status, session.text).to.equal(201);
    const me = await s.client.get('/api/me', { cookie: session.cookie, workspace: workspaceId });
    expect(me.status, me.text).to.equal(200);
    expect(me.body).to.include({ role: 'owner' });

    await stop(s);
    expect(await waitDead(pid!, 10_000), `postmaster ${pid} outlived the service`).to.equal(true);
    expectNoPostmaster(dataDir, 'after SIGTERM');
  });

  it('keeps the data across a restart on the same DATA_DIR', async () => {
    const s = await start();
    const session = await signInOver(s.client, email, password);
    expect(session.status, session.text).to.equal(201);
    expect(JSON.parse(session.text).workspaces.map((w: { id: string }) => w.id)).to.deep.equal([workspaceId]);
    const members = await s.client.get('/api/members', { cookie: session.cookie, workspace: workspaceId });
    expect(members.status, members.text).to.equal(200);
    expect(members.body.data.map((m: { email: string }) => m.email)).to.deep.equal([email]);
    // It serves as a role of its own, which may read and append the event log but not change it (docs/audit.md).
    const creds = JSON.parse(readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as { serving: { user: string; password: string } };
    expect(creds.serving.user).to.equal('conversation_service');
    const port = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    const serving = new pg.Client({ host: '127.0.0.1', port, database: 'conversations', user: creds.serving.user, password: creds.serving.password });
    await serving.connect();
    try {
      expect(Number((await serving.query('SELECT count(*) AS n FROM events')).rows[0].n)).to.be.greaterThan(0);
      const refused = await serving.query('DELETE FROM events').catch((e: { code: string }) => e.code);
      expect(refused).to.equal('42501');
    } finally {
      await serving.end();
    }
    const pid = postmasterPid(dataDir);
    await stop(s);
    if (pid !== null) expect(await waitDead(pid, 10_000), `postmaster ${pid} outlived the service`).to.equal(true);
    expectNoPostmaster(dataDir, 'after the second SIGTERM');
  });

  it('runs the CLI alone: it starts Postgres itself and stops it when done', async () => {
    expectNoPostmaster(dataDir, 'before the CLI');
    const cli = await runCli(
      ['workspace', 'create', '--name', 'Second Co', '--owner-email', 'second@embedded.example.com', '--owner-password', password],
      childEnv({ ...vars(), LOG_LEVEL: 'debug' }),
    );
    expect(cli.exit.code, `cli failed\n${cli.stderr}\n${cli.stdout}`).to.equal(0);
    expect(cli.json).to.include({ name: 'Second Co' });
    expect(cli.stderr).to.not.include('attaching');
    expectNoPostmaster(dataDir, 'after the CLI');
  });
});
