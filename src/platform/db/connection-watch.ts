// What one process knows about its database across a primary change (a
// failover behind HAProxy, a restart): which connections broke and were made
// again, and how long it had no primary to write to (metrics, operations.md).
//
// Noticed, not polled: a connection that breaks under the pool, the LISTEN
// connection or the dispatcher's lock, or a statement refused because the node
// is read-only (SQLSTATE 25006: a standby), starts an outage. From then on a
// probe asks every PROBE_MS whether the database answers as a primary, and the
// first yes ends it. A healthy process sends no probe at all.

/** The connections a process keeps: the pools', the LISTEN connection, the dispatcher's lock. */
export type ConnectionKind = 'pool' | 'listen' | 'lock';

const KINDS: readonly ConnectionKind[] = ['pool', 'listen', 'lock'];
const PROBE_MS = 500;
const PROBE_TIMEOUT_MS = 2_000;

/** What the pools, the listener and the dispatcher tell the watch. */
export interface ConnectionEvents {
  /** a connection of `kind` broke (its server went away, or closed it) */
  lost(kind: ConnectionKind): void;
  /** a connection of `kind` was made (for the pool: any new pooled connection) */
  opened(kind: ConnectionKind): void;
  /** the server refused a write as read-only: it is a standby, not the primary */
  notPrimary(): void;
}

export class ConnectionWatch implements ConnectionEvents {
  private readonly owed = new Map<ConnectionKind, number>(KINDS.map((k) => [k, 0]));
  private readonly reconnectCounts = new Map<ConnectionKind, number>(KINDS.map((k) => [k, 0]));
  private downSince: number | null = null;
  private downMs = 0;
  private probing: Promise<void> | null = null;
  private closed = false;

  /**
   * `probe`: true when the database answers as a primary (writable), false or a
   * rejection otherwise; bounded here by PROBE_TIMEOUT_MS.
   */
  constructor(
    private readonly probe: () => Promise<boolean>,
    private readonly now: () => number = Date.now,
  ) {}

  lost(kind: ConnectionKind): void {
    this.owed.set(kind, this.owed.get(kind)! + 1);
    this.unavailable();
  }

  opened(kind: ConnectionKind): void {
    // A connection made while one of its kind is owed replaces a broken one: a reconnect.
    const owed = this.owed.get(kind)!;
    if (owed === 0) return;
    this.owed.set(kind, owed - 1);
    this.reconnectCounts.set(kind, this.reconnectCounts.get(kind)! + 1);
  }

  notPrimary(): void {
    this.unavailable();
  }

  /** Something failed as if there were no primary (a refused connection, a readiness probe): check until there is one. */
  unavailable(): void {
    if (this.closed) return;
    if (this.downSince === null) this.downSince = this.now();
    this.probing ??= this.probeUntilUp().finally(() => (this.probing = null));
  }

  /** Connections of `kind` made again after one broke, since start. */
  reconnects(kind: ConnectionKind): number {
    return this.reconnectCounts.get(kind)!;
  }

  /** Seconds this process has had no primary since start (the current outage included). */
  secondsWithoutPrimary(): number {
    return (this.downMs + (this.downSince === null ? 0 : this.now() - this.downSince)) / 1000;
  }

  /** False from the first sign of an outage until a probe found a primary again. */
  primaryReachable(): boolean {
    return this.downSince === null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.probing;
  }

  private async probeUntilUp(): Promise<void> {
    while (!this.closed) {
      await new Promise((r) => setTimeout(r, PROBE_MS).unref());
      if (this.closed) return;
      if (await bounded(this.probe(), PROBE_TIMEOUT_MS)) {
        if (this.downSince !== null) this.downMs += this.now() - this.downSince;
        this.downSince = null;
        return;
      }
    }
  }
}

/** True when `p` resolves true within `ms`; a rejection or a late answer is false. */
async function bounded(p: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The probe's statement: true on a primary; a standby (or a session made read-only) answers false. */
export const PRIMARY_PROBE_SQL = "SELECT current_setting('transaction_read_only') = 'off' AS writable";
