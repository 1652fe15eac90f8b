// The EventStoreDB server a run measures the store-comparing rows on (append,
// write, reply: `npm run bench -- --eventstoredb <url>`, or EVENTSTORE_URL).
// What the run needs to know of it before it starts: that it answers (and which
// version it is, for the header), a stream prefix no earlier run used, and, when
// it runs on this machine, its process, whose CPU counts in `cpu per write`.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export interface EventStoreTarget {
  url: string;
  /** the URL without credentials, for the output */
  shown: string;
  /** ServerFeatures' version string, e.g. "24.6.0.0" */
  version: string;
  /**
   * A prefix of this run's own: on a long-lived server the services' $all subscriptions (filtered by prefix) would
   * otherwise start by replaying every earlier run's `tenant-` streams into a fresh database's read models.
   */
  streamPrefix: string;
  /** the server's process when it runs here (its CPU is counted), else null */
  pid: number | null;
  /** how the pid was found, or why there is none */
  pidHow: string;
}

/** The URL as printed and stored in the result: credentials removed. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z+]+:\/\/)[^@/]*@/i, '$1');
}

/** Checks that the server answers (version fetch, bounded) and finds what the run needs of it. */
export async function eventStoreTarget(url: string, timeoutMs = 15_000): Promise<EventStoreTarget> {
  // The client (gRPC, protobufs) is loaded only by a run that was given a server.
  const { EventStoreDBClient } = await import('@eventstore/db-client');
  const client = EventStoreDBClient.connectionString(url.replace(/^kurrent(?:db)?(\+discover)?:\/\//i, (_m, d: string | undefined) => `esdb${d ?? ''}://`));
  let timer: NodeJS.Timeout | undefined;
  try {
    // What the adapter itself asks before its first read (ServerFeatures.GetSupportedMethods); the client fetches it
    // with no deadline, hence the timer.
    const features = await Promise.race([
      (client as unknown as { capabilities: Promise<{ serverVersion: string }> }).capabilities,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
    ]);
    const { pid, how } = serverPid(url);
    return {
      url,
      shown: withoutCredentials(url),
      version: features.serverVersion,
      streamPrefix: `bench${randomBytes(6).toString('hex')}-`,
      pid,
      pidHow: how,
    };
  } catch (e) {
    throw new Error(`EventStoreDB at ${withoutCredentials(url)} did not answer: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
    await client.dispose().catch(() => undefined);
  }
}

const SERVER_BINARY = /EventStore\.ClusterNode|eventstored|kurrentd/i;

/**
 * The server's pid, so `cpu per write (eventstoredb)` counts what the log costs there as the Postgres row counts
 * Postgres: BENCH_EVENTSTORE_PID, or the one EventStoreDB process on this machine (the one whose arguments name the
 * URL's port, when there are several). Only for a loopback URL; a server elsewhere is not seen (the note says so).
 */
function serverPid(url: string): { pid: number | null; how: string } {
  const given = process.env.BENCH_EVENTSTORE_PID;
  if (given) return { pid: Number(given), how: 'BENCH_EVENTSTORE_PID' };
  const m = /^[a-z+]+:\/\/(?:[^@/]*@)?([^/?,]+)(?:[/?]|$)/i.exec(url);
  const hostPort = m?.[1] ?? '';
  const [host, port = '2113'] = hostPort.startsWith('[') ? [hostPort.slice(0, hostPort.indexOf(']') + 1), hostPort.split(']:')[1]] : hostPort.split(':');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host ?? '')) return { pid: null, how: `the server is not on this machine (${hostPort || url})` };
  const found: { pid: number; args: string[] }[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return { pid: null, how: 'no /proc here' };
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const args = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (args.some((a) => SERVER_BINARY.test(a))) found.push({ pid: Number(e), args });
    } catch {
      // gone, or not ours to read
    }
  }
  const onPort = found.filter(
    (f) => f.args.some((a, i) => a === port && /port/i.test(f.args[i - 1] ?? '')) || f.args.some((a) => new RegExp(`port[=:]${port}$`, 'i').test(a)),
  );
  const pick = onPort.length === 1 ? onPort[0] : found.length === 1 ? found[0] : undefined;
  if (pick) return { pid: pick.pid, how: `process ${pick.pid} (${pick.args.find((a) => SERVER_BINARY.test(a))})` };
  return {
    pid: null,
    how: found.length
      ? `${found.length} EventStoreDB processes here, none told apart by port ${port} (set BENCH_EVENTSTORE_PID)`
      : 'no EventStoreDB process found on this machine',
  };
}
