// The EventStoreDB cluster `npm run failover -- --eventstoredb` runs against:
// nodes an operator already runs, named by the environment. The run never
// starts a node except to bring back one it killed, with the command the
// environment gives for it.
//
//   FAILOVER_ESDB_NODES      every node's HTTP endpoint, comma-separated, e.g.
//                            http://127.0.0.1:2113,http://127.0.0.1:2123,http://127.0.0.1:2133
//                            (gossip and /info are read there; on 24.x the gRPC port is the same one)
//   FAILOVER_ESDB_START_<n>  n = 1, 2, ... in FAILOVER_ESDB_NODES' order: a shell command (run with sh -c, in a
//                            session of its own, its output appended to the run's node<n>.log) that starts
//                            node n again on its own data. It may return at once (a script that puts the node
//                            in the background) or run the node in the foreground: the run does not wait for
//                            it, it watches the node's port and gossip. The node outlives the run either way.
//
// Not EVENTSTORE_*: the server reads every EVENTSTORE_* variable of its environment as a setting of its own, and
// refuses to start on one it does not know (EVENTSTORE_URL, the service's, is "unknown option Url"). So the start
// command runs without any EVENTSTORE_* variable of the run's environment; give the node its settings in the
// command itself.
//
// The kill is SIGKILL to the process listening on the node's HTTP port, found through /proc (Linux): the
// listening socket's inode in /proc/net/tcp{,6}, then the process holding it in /proc/<pid>/fd. Whatever wraps
// the node (a shell, a supervisor) is left alone, as when a server process dies under it. The run must be
// allowed to signal that process (the same user, or root).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { EventStoreDBClient, FORWARDS, START, StreamNotFoundError } from '@eventstore/db-client';
import { sleep } from '../scale-out/procs.js';

/** One member as a node's gossip (GET /gossip) describes it (EventStore.Core's MemberInfoDto, camel-cased). */
export interface Member {
  instanceId: string;
  state: string;
  isAlive: boolean;
  httpEndPointIp: string;
  httpEndPointPort: number;
  epochNumber?: number;
  writerCheckpoint?: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of the processes holding a socket that listens on TCP `port` (any address), from /proc. */
export function listenerPids(port: number): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field
      if (f.length < 10 || f[3] !== '0A') continue;
      if (parseInt(f[1]!.split(':').at(-1)!, 16) === port) inodes.add(`socket:[${f[9]}]`);
    }
  }
  if (inodes.size === 0) return [];
  const pids: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${d}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${d}/fd/${fd}`))) {
          pids.push(Number(d));
          break;
        }
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return pids;
}

export class EsdbNode {
  kills = 0;
  starts = 0;
  readonly host: string;
  readonly port: number;

  constructor(
    /** 1-based, in FAILOVER_ESDB_NODES' order */
    readonly n: number,
    readonly url: string,
    private readonly startCommand: string,
    readonly logFile: string,
  ) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
  }

  get name(): string {
    return `node${this.n}`;
  }

  get label(): string {
    return `${this.name} (${this.host}:${this.port})`;
  }

  /** The member of a gossip answer that is this node. */
  is(m: Member): boolean {
    return m.httpEndPointPort === this.port && (m.httpEndPointIp === this.host || (m.httpEndPointIp === '127.0.0.1' && this.host === 'localhost'));
  }

  pids(): number[] {
    return listenerPids(this.port);
  }

  private async get<T>(p: string): Promise<T | null> {
    try {
      const r = await fetch(new URL(p, this.url), { signal: AbortSignal.timeout(2_000) });
      if (r.status !== 200) {
        await r.arrayBuffer();
        return null;
      }
      return (await r.json()) as T;
    } catch {
      return null;
    }
  }

  /** This node's view of the cluster; null when it does not answer. */
  async gossip(): Promise<Member[] | null> {
    return (await this.get<{ members?: Member[] }>('/gossip'))?.members ?? null;
  }

  async info(): Promise<{ esVersion?: string; state?: string } | null> {
    return this.get('/info');
  }

  /** SIGKILL to the process listening on the node's port; waits (bounded) until it is gone. */
  async kill(): Promise<{ pids: number[]; at: number }> {
    const pids = this.pids();
    if (pids.length === 0) throw new Error(`${this.label}: no process listens on port ${this.port}`);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const at = Date.now();
    this.kills++;
    const until = at + 10_000;
    while (pids.some(alive) && Date.now() < until) await sleep(20);
    if (pids.some(alive)) throw new Error(`${this.label}: pid ${pids.join(', ')} still alive 10 s after SIGKILL`);
    return { pids, at };
  }

  /** Runs the node's start command, detached (the node outlives the run), without the run's EVENTSTORE_* settings. */
  start(): void {
    const fd = openSync(this.logFile, 'a');
    writeSync(fd, `\n=== ${new Date().toISOString()} start #${this.starts + 1} of ${this.label}: ${this.startCommand}\n`);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVENTSTORE_')));
    const child = spawn('sh', ['-c', this.startCommand], { detached: true, stdio: ['ignore', fd, fd], env });
    closeSync(fd);
    child.on('error', () => undefined);
    child.unref();
    this.starts++;
  }
}

export class EsdbCluster {
  constructor(readonly nodes: EsdbNode[]) {}

  /** The nodes of FAILOVER_ESDB_NODES with their FAILOVER_ESDB_START_<n>; a clear error when either is missing. */
  static fromEnv(logDir: string): EsdbCluster {
    const list = (process.env.FAILOVER_ESDB_NODES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.length < 3) {
      throw new Error(
        "FAILOVER_ESDB_NODES must list the running cluster's nodes (three or more), each by its HTTP endpoint: FAILOVER_ESDB_NODES=http://127.0.0.1:2113,http://127.0.0.1:2123,http://127.0.0.1:2133 (see scripts/failover/eventstoredb.ts)",
      );
    }
    const missing = list.map((_, i) => `FAILOVER_ESDB_START_${i + 1}`).filter((k) => !process.env[k]?.trim());
    if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: the command that starts each node again (see scripts/failover/eventstoredb.ts)`);
    return new EsdbCluster(
      list.map((url, i) => new EsdbNode(i + 1, url, process.env[`FAILOVER_ESDB_START_${i + 1}`]!.trim(), path.join(logDir, `node${i + 1}.log`))),
    );
  }

  get quorum(): number {
    return Math.floor(this.nodes.length / 2) + 1;
  }

  private async views(): Promise<Map<EsdbNode, Member[] | null>> {
    const got = await Promise.all(this.nodes.map((n) => n.gossip()));
    return new Map(this.nodes.map((n, i) => [n, got[i]!]));
  }

  /**
   * The leader a quorum of the nodes name (alive, state Leader), itself among them: null while there is none
   * (an election, or the survivors still naming the dead leader before their gossip gives it up).
   */
  async leader(): Promise<EsdbNode | null> {
    const views = await this.views();
    const votes = new Map<EsdbNode, EsdbNode[]>();
    for (const [voter, members] of views) {
      const l = members?.find((m) => m.isAlive && m.state === 'Leader');
      const node = l && this.nodes.find((n) => n.is(l));
      if (node) votes.set(node, [...(votes.get(node) ?? []), voter]);
    }
    for (const [node, voters] of votes) if (voters.length >= this.quorum && voters.includes(node)) return node;
    return null;
  }

  /** Polls (every 100 ms, bounded) until a leader other than `not` is agreed on. */
  async waitLeader(not: EsdbNode | null, ms: number): Promise<EsdbNode | null> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const l = await this.leader();
      if (l && l !== not) return l;
      await sleep(100);
    }
    return null;
  }

  /** `node` answers, and both it and the leader see it alive as a Follower (caught up with the leader). */
  async isFollower(node: EsdbNode, leader: EsdbNode): Promise<boolean> {
    const [own, lead] = await Promise.all([node.gossip(), leader.gossip()]);
    const f = (ms: Member[] | null) => ms?.some((m) => node.is(m) && m.isAlive && m.state === 'Follower') ?? false;
    return f(own) && f(lead);
  }

  /** Every node's state as the leader (or any node that answers) sees it, for the log. */
  async states(): Promise<string> {
    for (const [, members] of await this.views()) {
      if (!members) continue;
      return this.nodes
        .map((n) => {
          const m = members.find((x) => n.is(x));
          return `${n.name} ${m ? (m.isAlive ? m.state : `${m.state} (dead)`) : 'unknown'}`;
        })
        .join(', ');
    }
    return 'no node answers';
  }

  /** The server's version (/info), from the first node that answers. */
  async version(): Promise<string | null> {
    for (const n of this.nodes) {
      const i = await n.info();
      if (i?.esVersion) return i.esVersion;
    }
    return null;
  }

  /**
   * Starts `node` again and waits (bounded) until it is a follower of `leader`. A node whose process listened
   * and then exited on the way is started again, as a supervisor would, up to `maxStarts` starts in all:
   * EventStoreDB shuts a node down by design when it rejoins with a tail of its log the cluster never committed
   * (a leader killed before it replicated its last writes), and truncates that tail when it starts the next
   * time. One that has not listened yet is only waited for, however long it takes: a start command's process
   * is not ours to watch, and a second start beside a slow one fails on the data directory's lock (seen on
   * a machine so loaded that a node took four minutes to start).
   */
  async restart(node: EsdbNode, leader: EsdbNode, ms: number, maxStarts = 3): Promise<{ seconds: number; starts: number; follower: boolean }> {
    const began = Date.now();
    const until = began + ms;
    let starts = 0;
    let seen: number[] = [];
    const startOnce = () => {
      node.start();
      starts++;
      seen = [];
    };
    startOnce();
    while (Date.now() < until) {
      if (await this.isFollower(node, leader)) return { seconds: (Date.now() - began) / 1000, starts, follower: true };
      const now = node.pids();
      if (now.length > 0) seen = now;
      else if (seen.length > 0 && !seen.some(alive)) {
        // it listened, and its process is gone: it stopped itself (or failed); start it again while allowed
        if (starts >= maxStarts) break;
        startOnce();
      }
      await sleep(250);
    }
    return { seconds: (Date.now() - began) / 1000, starts, follower: false };
  }

  /**
   * The nodes whose own copy of `stream` (read on that node, without asking for the leader) does not hold
   * exactly the events `ids`, in order, once replication had `ms` to catch up.
   */
  async copiesDiffer(serviceUrl: string, stream: string, ids: string[], ms: number): Promise<string[]> {
    const differ: string[] = [];
    for (const node of this.nodes) {
      const client = EventStoreDBClient.connectionString(directUrl(serviceUrl, node));
      try {
        const until = Date.now() + ms;
        let last = '';
        for (;;) {
          const got = await readIds(client, stream, ids.length + 10, 10_000).catch((e: Error) => e);
          if (!(got instanceof Error) && got.length === ids.length && got.every((id, i) => id === ids[i])) break;
          last = got instanceof Error ? got.message : `${got.length} events${got.length === ids.length ? ', in another order or with other ids' : ''}`;
          if (Date.now() >= until) {
            differ.push(`${node.label}'s copy of ${stream} differs from the log read through the store (${ids.length} events): ${last}`);
            break;
          }
          await sleep(500);
        }
      } finally {
        await client.dispose();
      }
    }
    return differ;
  }
}

/** The service's connection string (its credentials and settings) pointed at one node alone: no discovery, no leader. */
function directUrl(serviceUrl: string, node: EsdbNode): string {
  const m = /^[a-z+]+:\/\/(?:([^@/]*)@)?[^/?]*\/?(\?.*)?$/i.exec(serviceUrl);
  const auth = m?.[1] ? `${m[1]}@` : '';
  const query = new URLSearchParams(m?.[2]?.slice(1) ?? '');
  query.delete('nodePreference');
  const q = query.toString();
  return `esdb://${auth}${node.host}:${node.port}${q ? `?${q}` : ''}`;
}

/**
 * The event ids of `stream` as one node holds them, read whole within `ms`. Never left early (a `for await`
 * left early leaves the gRPC call open); a read that runs out of time is cancelled.
 */
function readIds(client: EventStoreDBClient, stream: string, max: number, ms: number): Promise<string[]> {
  const read = client.readStream(stream, { direction: FORWARDS, fromRevision: START, maxCount: max, requiresLeader: false });
  return new Promise<string[]>((resolve, reject) => {
    const ids: string[] = [];
    let done = false;
    const fail = (e: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void read.cancel().catch(() => undefined);
      if (e instanceof StreamNotFoundError) resolve([]);
      else reject(e instanceof Error ? e : new Error(String(e)));
    };
    const timer = setTimeout(() => fail(new Error(`reading ${stream} took over ${ms} ms`)), ms);
    read.on('data', (r: { event?: { id: string } }) => {
      if (!done && r.event) ids.push(r.event.id);
    });
    read.on('error', fail);
    read.once('end', () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(ids);
    });
  });
}
