// A highly available Postgres as production would run it (docs/production-topology.md),
// on loopback: three etcd members, Patroni-managed Postgres nodes run as the
// `postgres` user, and HAProxy sending connections to whichever node is primary.
// The configuration files are deploy/'s own (patroni.yml, haproxy.cfg,
// etcd.env), given the addresses and ports of this run through the environment
// as an operator would give theirs. Used by `npm run failover` and the bench's
// failover row. Every process is a child of this one, killed by id.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/platform/db/embedded-postgres.js';
import { ensureDebianPackage } from '../lib/debian.js';
import { REPO_ROOT, sleep, tailFile } from '../scale-out/procs.js';

export const ETCD = '/usr/bin/etcd';
export const PATRONI = '/usr/bin/patroni';
export const PATRONICTL = '/usr/bin/patronictl';
export const HAPROXY = '/usr/sbin/haproxy';
/** Postgres binaries for the nodes (Debian 12's postgresql-15); FAILOVER_PG_BIN moves them. */
export const PG_BIN = process.env.FAILOVER_PG_BIN ?? '/usr/lib/postgresql/15/bin';

const DEPLOY = path.join(REPO_ROOT, 'deploy');

/** The Debian packages the cluster runs on: present, or installed when we are root (scripts/lib/debian.ts). */
export async function ensureClusterPackages(log: (m: string) => void): Promise<void> {
  await ensureDebianPackage(ETCD, 'etcd-server', log);
  await ensureDebianPackage('/usr/bin/etcdctl', 'etcd-client', log);
  await ensureDebianPackage(HAPROXY, 'haproxy', log);
  await ensureDebianPackage(`${PG_BIN}/pg_rewind`, 'postgresql-15', log);
  await ensureDebianPackage(PATRONI, 'patroni', log);
}

const asRoot = () => process.getuid?.() === 0;

/** The postgres user's uid and gid (Postgres and Patroni refuse to run as root). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('no postgres user (the postgresql-15 package creates it)');
  return { uid, gid };
}

function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number | null, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
}

async function waitGone(pid: number | null, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (alive(pid) && Date.now() < until) await sleep(50);
  return !alive(pid);
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/** `KEY=VALUE` lines of an environment file (comments and blanks skipped). */
function envFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

/** A child process writing to a log file of its own. */
function spawnLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, cwd: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  writeSync(fd, `\n=== ${new Date().toISOString()} ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return child;
}

async function httpStatus(url: string, method = 'GET'): Promise<number | null> {
  try {
    const r = await fetch(url, { method, signal: AbortSignal.timeout(1_500) });
    await r.arrayBuffer();
    return r.status;
  } catch {
    return null;
  }
}

/** Polls `check` every 100 ms until it is true; false after `ms`. */
async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(100);
  }
  return false;
}

// ---- etcd ----

/** One member of the run's etcd cluster. */
interface EtcdMember {
  name: string;
  clientPort: number;
  peerPort: number;
  child: ChildProcess | null;
  logFile: string;
}

/**
 * Three etcd members on loopback, as docs/production-topology.md runs them (one per machine there): Patroni's
 * leader key survives one member lost. Each is deploy/etcd.env with its own name, ports and data directory.
 */
class Etcd {
  private members: EtcdMember[] = [];

  constructor(private readonly dir: string) {}

  /** every member's client address, as PATRONI_ETCD3_HOSTS and etcdctl's --endpoints take them */
  get hosts(): string {
    return this.members.map((m) => `127.0.0.1:${m.clientPort}`).join(',');
  }

  async start(): Promise<void> {
    this.members = [];
    for (const name of ['etcd1', 'etcd2', 'etcd3'])
      this.members.push({ name, clientPort: await freePort(), peerPort: await freePort(), child: null, logFile: path.join(this.dir, `${name}.log`) });
    const initialCluster = this.members.map((m) => `${m.name}=http://127.0.0.1:${m.peerPort}`).join(',');
    const token = `failover-${randomBytes(4).toString('hex')}`;
    for (const m of this.members) {
      const dataDir = path.join(this.dir, m.name);
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const env = {
        ...process.env,
        ...envFile(path.join(DEPLOY, 'etcd.env')),
        ETCD_NAME: m.name,
        ETCD_DATA_DIR: dataDir,
        ETCD_LISTEN_CLIENT_URLS: `http://127.0.0.1:${m.clientPort}`,
        ETCD_ADVERTISE_CLIENT_URLS: `http://127.0.0.1:${m.clientPort}`,
        ETCD_LISTEN_PEER_URLS: `http://127.0.0.1:${m.peerPort}`,
        ETCD_INITIAL_ADVERTISE_PEER_URLS: `http://127.0.0.1:${m.peerPort}`,
        ETCD_INITIAL_CLUSTER: initialCluster,
        ETCD_INITIAL_CLUSTER_TOKEN: token,
      };
      m.child = spawnLogged(ETCD, [], env, m.logFile, this.dir);
    }
    // A member answers /health 200 once the cluster has a leader: all three started first, then waited for.
    for (const m of this.members) {
      const up = await until(async () => {
        if (m.child?.exitCode !== null) return false;
        return (await httpStatus(`http://127.0.0.1:${m.clientPort}/health`)) === 200;
      }, 30_000);
      if (!up) throw new Error(`etcd member ${m.name} did not come up\n${tailFile(m.logFile)}`);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.members.map(async ({ child: c }) => {
        if (!c || c.exitCode !== null || c.signalCode !== null) return;
        c.kill('SIGTERM');
        if (!(await waitExit(c, 10_000))) c.kill('SIGKILL');
      }),
    );
  }
}

// ---- Patroni ----

/** What `/cluster` says of a member. */
export interface Member {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

export class PatroniNode {
  private child: ChildProcess | null = null;
  /** the patroni process itself (runuser, when we are root, forks it) */
  patroniPid: number | null = null;
  pgPort = 0;
  apiPort = 0;
  starts = 0;
  kills = 0;
  readonly home: string;
  readonly dataDir: string;
  readonly logFile: string;

  constructor(
    readonly name: string,
    dir: string,
    private readonly common: Record<string, string>,
  ) {
    this.home = path.join(dir, name);
    this.dataDir = path.join(this.home, 'data');
    this.logFile = path.join(dir, `${name}.log`);
  }

  async ports(): Promise<void> {
    this.pgPort = await freePort();
    this.apiPort = await freePort();
  }

  get api(): string {
    return `http://127.0.0.1:${this.apiPort}`;
  }

  /** Starts Patroni on deploy/patroni.yml with this node's name, ports and data directory. */
  async start(): Promise<void> {
    if (!existsSync(this.home)) {
      mkdirSync(this.home, { recursive: true, mode: 0o700 });
      if (asRoot()) {
        const { uid, gid } = postgresUser();
        chownSync(this.home, uid, gid);
      }
    }
    const env = {
      ...process.env,
      ...this.common,
      PATRONI_NAME: this.name,
      PATRONI_RESTAPI_LISTEN: `127.0.0.1:${this.apiPort}`,
      PATRONI_RESTAPI_CONNECT_ADDRESS: `127.0.0.1:${this.apiPort}`,
      PATRONI_POSTGRESQL_LISTEN: `127.0.0.1:${this.pgPort}`,
      PATRONI_POSTGRESQL_CONNECT_ADDRESS: `127.0.0.1:${this.pgPort}`,
      PATRONI_POSTGRESQL_DATA_DIR: this.dataDir,
      PATRONI_POSTGRESQL_PGPASS: path.join(this.home, 'pgpass'),
      PATRONI_POSTGRESQL_BIN_DIR: PG_BIN,
    };
    // A copy in the node's own folder: as root Patroni runs as postgres, who may not enter the clone (a clone below
    // a 0700 home such as /root: Patroni read no file and stopped on a KeyError).
    const config = path.join(this.home, 'patroni.yml');
    copyFileSync(path.join(DEPLOY, 'patroni.yml'), config);
    if (asRoot()) {
      const { uid, gid } = postgresUser();
      chownSync(config, uid, gid);
    }
    const child = asRoot()
      ? spawnLogged('runuser', ['-u', 'postgres', '--', PATRONI, config], env, this.logFile, this.home)
      : spawnLogged(PATRONI, [config], env, this.logFile, this.home);
    this.child = child;
    this.starts++;
    this.patroniPid = asRoot() ? null : (child.pid ?? null);
    if (asRoot()) {
      // runuser forks patroni and waits for it: the process to kill is its child.
      await until(async () => {
        const kids = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
          .stdout.split('\n')
          .map(Number)
          .filter((n) => n > 0);
        this.patroniPid = kids[0] ?? null;
        return this.patroniPid !== null || child.exitCode !== null;
      }, 10_000);
      if (this.patroniPid === null) throw new Error(`${this.name}: patroni did not start\n${tailFile(this.logFile)}`);
    }
  }

  /** The postmaster's pid, from its pid file (Patroni starts it detached: it outlives a killed Patroni). */
  postmasterPid(): number | null {
    try {
      const pid = Number(readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
    } catch {
      return null;
    }
  }

  running(): boolean {
    return alive(this.patroniPid);
  }

  /** The postmaster's walsenders: the processes streaming WAL to the standby. */
  walsenders(): number[] {
    const postmaster = this.postmasterPid();
    if (!postmaster) return [];
    const kids = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .stdout.split('\n')
      .map(Number)
      .filter((n) => n > 0);
    return kids.filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('walsender');
      } catch {
        return false;
      }
    });
  }

  /**
   * SIGKILL the patroni process and the postmaster at once: a machine lost, nothing shut down. With
   * `holdStreamMs`, the stream to the standby is held back that long first (its walsenders stopped, then
   * killed with the rest): the machine dies in a network hiccup, with WAL the standby never got.
   */
  async kill(opts: { holdStreamMs?: number } = {}): Promise<{ heldWalsenders: number; heldAt: number; killedAt: number }> {
    const postmaster = this.postmasterPid();
    const senders = opts.holdStreamMs ? this.walsenders() : [];
    const heldAt = Date.now();
    for (const pid of senders) signal(pid, 'SIGSTOP');
    if (senders.length > 0) await sleep(opts.holdStreamMs!);
    const killedAt = Date.now();
    signal(this.patroniPid, 'SIGKILL');
    signal(postmaster, 'SIGKILL');
    for (const pid of senders) signal(pid, 'SIGKILL');
    this.kills++;
    await waitGone(this.patroniPid, 5_000);
    await waitGone(postmaster, 5_000);
    if (this.child) await waitExit(this.child, 5_000);
    return { heldWalsenders: senders.length, heldAt, killedAt };
  }

  /** Patroni stops Postgres and exits on SIGTERM; SIGKILL and an immediate shutdown after a while. */
  async stop(): Promise<void> {
    const postmaster = this.postmasterPid();
    if (this.running()) {
      signal(this.patroniPid, 'SIGTERM');
      if (!(await waitGone(this.patroniPid, 25_000))) signal(this.patroniPid, 'SIGKILL');
    }
    const left = this.postmasterPid() ?? (alive(postmaster) ? postmaster : null);
    if (left) {
      signal(left, 'SIGQUIT');
      if (!(await waitGone(left, 5_000))) signal(left, 'SIGKILL');
    }
    if (this.child) await waitExit(this.child, 5_000);
  }

  /** The HTTP status of Patroni's REST `path` (null: no answer). */
  status(p: string, method = 'GET'): Promise<number | null> {
    return httpStatus(`${this.api}${p}`, method);
  }

  async cluster(): Promise<Member[] | null> {
    try {
      const r = await fetch(`${this.api}/cluster`, { signal: AbortSignal.timeout(1_500) });
      return ((await r.json()) as { members: Member[] }).members;
    } catch {
      return null;
    }
  }

  /** Bytes of the log so far: what a later start wrote comes after this. */
  logSize(): number {
    try {
      return statSync(this.logFile).size;
    } catch {
      return 0;
    }
  }

  /** The log from byte `from` on. */
  logSince(from: number): string {
    try {
      return readFileSync(this.logFile).subarray(from).toString('utf8');
    } catch {
      return '';
    }
  }
}

// ---- HAProxy ----

class HaProxy {
  private child: ChildProcess | null = null;
  port = 0;
  readonly logFile: string;

  constructor(
    private readonly dir: string,
    private readonly nodes: PatroniNode[],
  ) {
    this.logFile = path.join(dir, 'haproxy.log');
  }

  async start(): Promise<void> {
    if (this.nodes.length !== 2) throw new Error('deploy/haproxy.cfg names two nodes');
    this.port = await freePort();
    const env = {
      ...process.env,
      PG_PRIMARY_BIND: `127.0.0.1:${this.port}`,
      NODE1_PG: `127.0.0.1:${this.nodes[0]!.pgPort}`,
      NODE1_API: String(this.nodes[0]!.apiPort),
      NODE2_PG: `127.0.0.1:${this.nodes[1]!.pgPort}`,
      NODE2_API: String(this.nodes[1]!.apiPort),
    };
    const config = path.join(DEPLOY, 'haproxy.cfg');
    const check = spawnSync(HAPROXY, ['-c', '-f', config], { env, encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`haproxy -c rejected ${config}:\n${check.stdout}${check.stderr}`);
    // -db: in the foreground, so this child is HAProxy itself
    this.child = spawnLogged(HAPROXY, ['-db', '-f', config], env, this.logFile, this.dir);
  }

  async stop(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGTERM');
    if (!(await waitExit(c, 5_000))) c.kill('SIGKILL');
  }
}

// ---- the cluster ----

export interface ClusterOptions {
  dir: string;
  log: (m: string) => void;
  /** synchronous_mode (default on, as deploy/patroni.yml); off: the negative control */
  synchronous?: boolean;
}

export class PatroniCluster {
  readonly nodes: PatroniNode[];
  private readonly etcd: Etcd;
  private readonly haproxy: HaProxy;
  private readonly superPassword = randomBytes(12).toString('hex');
  /** every node's environment beyond its own name, ports and directory (etcd's address is set once it runs) */
  private readonly common: Record<string, string>;
  readonly synchronous: boolean;

  constructor(private readonly o: ClusterOptions) {
    this.synchronous = o.synchronous ?? true;
    this.etcd = new Etcd(o.dir);
    this.common = {
      PATRONI_SUPERUSER_PASSWORD: this.superPassword,
      PATRONI_REPLICATION_PASSWORD: randomBytes(12).toString('hex'),
      PATRONI_REWIND_PASSWORD: randomBytes(12).toString('hex'),
      PATRONI_LOG_LEVEL: 'INFO',
    };
    this.nodes = ['node1', 'node2'].map((n) => new PatroniNode(n, o.dir, this.common));
    this.haproxy = new HaProxy(o.dir, this.nodes);
  }

  /** Where connections reach the primary: HAProxy's port. */
  get port(): number {
    return this.haproxy.port;
  }

  /** A URL through HAProxy as the superuser (setting up, checking). */
  superuserUrl(database = 'postgres'): string {
    return `postgres://postgres:${this.superPassword}@127.0.0.1:${this.port}/${database}`;
  }

  /** The URL of one node directly (the bench's baseline), as the superuser. */
  directUrl(node: PatroniNode, database = 'postgres'): string {
    return `postgres://postgres:${this.superPassword}@127.0.0.1:${node.pgPort}/${database}`;
  }

  /** etcd, the first node (initdb), the second (a base backup, then a synchronous standby), HAProxy. */
  async start(): Promise<void> {
    const { log } = this.o;
    await this.etcd.start();
    for (const n of this.nodes) await n.ports();
    this.common.PATRONI_ETCD3_HOSTS = this.etcd.hosts;
    log(`etcd on ${this.etcd.hosts}`);
    const [first, second] = this.nodes as [PatroniNode, PatroniNode];
    let t = Date.now();
    await first.start();
    if (!(await until(async () => (await first.status('/primary', 'OPTIONS')) === 200, 120_000)))
      throw new Error(`${first.name} did not become primary\n${tailFile(first.logFile)}`);
    log(`${first.name} bootstrapped (initdb) and primary in ${Date.now() - t} ms (Postgres ${first.pgPort}, REST ${first.apiPort})`);
    t = Date.now();
    await second.start();
    if (!(await this.rejoined(second, 120_000))) throw new Error(`${second.name} did not join as a standby\n${tailFile(second.logFile)}`);
    log(
      `${second.name} cloned and ${this.synchronous ? 'the synchronous standby' : 'streaming'} in ${Date.now() - t} ms (Postgres ${second.pgPort}, REST ${second.apiPort})`,
    );
    if (!this.synchronous) await this.editConfig('synchronous_mode=false');
    await this.haproxy.start();
    // HAProxy counts a server up until its checks say otherwise (fall 2, inter 1 s): for the first
    // seconds it may hand a connection to the standby. Ready once connections keep finding the primary.
    const haproxyAt = Date.now();
    let inARow = 0;
    const reachable = await until(async () => {
      const c = new pg.Client({ connectionString: this.superuserUrl(), connectionTimeoutMillis: 2_000 });
      c.on('error', () => undefined);
      try {
        await c.connect();
        const r = await c.query("SELECT current_setting('transaction_read_only') = 'off' AS writable");
        inARow = r.rows[0]?.writable === true ? inARow + 1 : 0;
        return inARow >= 5 && Date.now() - haproxyAt > 3_000;
      } catch {
        inARow = 0;
        return false;
      } finally {
        await c.end().catch(() => undefined);
      }
    }, 30_000);
    if (!reachable) throw new Error(`no primary through HAProxy on ${this.port}\n${tailFile(this.haproxy.logFile)}`);
    log(`HAProxy on 127.0.0.1:${this.port} -> the primary (OPTIONS /primary checks)`);
  }

  /** `patronictl edit-config -s <setting>` (the DCS's dynamic configuration: bootstrap.dcs is read once). */
  async editConfig(setting: string): Promise<void> {
    const r = spawnSync(PATRONICTL, ['-c', path.join(DEPLOY, 'patroni.yml'), 'edit-config', '--force', '-s', setting], {
      env: { ...process.env, PATRONI_ETCD3_HOSTS: this.etcd.hosts },
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (r.status !== 0) throw new Error(`patronictl edit-config -s ${setting} failed:\n${r.stdout}${r.stderr}`);
    // Every node's next loop applies it: wait until no node reports a synchronous standby.
    if (setting === 'synchronous_mode=false') {
      const off = await until(async () => (await Promise.all(this.nodes.map((n) => n.status('/sync')))).every((s) => s !== 200), 30_000);
      if (!off) throw new Error('a synchronous standby is still reported after synchronous_mode=false');
    }
    this.o.log(`patronictl edit-config -s ${setting}`);
  }

  /** The member holding the leader lock, as any live node's REST API tells it. */
  async leader(): Promise<PatroniNode | null> {
    for (const n of this.nodes) {
      if (!n.running()) continue;
      const members = await n.cluster();
      const name = members?.find((m) => m.role === 'leader')?.name;
      if (name) return this.nodes.find((x) => x.name === name) ?? null;
    }
    return null;
  }

  /** Waits until `node` answers as the primary (it holds the lock and is promoted). */
  async waitPrimary(node: PatroniNode, ms: number): Promise<boolean> {
    return until(async () => (await node.status('/primary', 'OPTIONS')) === 200, ms);
  }

  /** Waits until `node` is the synchronous standby (or, with synchronous_mode off, a streaming replica). */
  async rejoined(node: PatroniNode, ms: number): Promise<boolean> {
    return until(async () => {
      if (this.synchronous) return (await node.status('/sync')) === 200;
      if ((await node.status('/replica')) !== 200) return false;
      const me = (await node.cluster())?.find((m) => m.name === node.name);
      return me?.state === 'streaming' || me?.state === 'running';
    }, ms);
  }

  async stop(): Promise<void> {
    await this.haproxy.stop();
    // The replicas first: a primary stopped first would leave them to take over, only to be stopped too.
    const leader = await this.leader().catch(() => null);
    for (const n of [...this.nodes.filter((n) => n !== leader), ...(leader ? [leader] : [])]) await n.stop();
    await this.etcd.stop();
  }
}
