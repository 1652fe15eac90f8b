// One LISTEN connection shared by everything in the process that wants to be
// woken by NOTIFY. Reconnects after errors; listeners never see the connection.
//
// Across a primary change (a failover behind HAProxy) the connection breaks and
// the next ones may be refused for a while (HAProxy accepts and closes while no
// node is primary): it keeps trying, with a growing pause, for as long as the
// process runs. Notifications sent while it was away are lost, so every
// listener is woken twice: when the connection breaks (to re-poll at once) and
// once it listens again (for what was committed in between).
import pg from 'pg';
import type { ConnectionEvents } from '../platform/db/connection-watch.js';

const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 2_000;

export class PgNotifier {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private everConnected = false;
  // LISTENs go one at a time: a pg client must not be handed a query while one runs.
  private listening: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly onError: (e: unknown) => void = () => undefined,
    private readonly events?: ConnectionEvents,
  ) {}

  async listen(channel: string, handler: (payload: string) => void): Promise<() => void> {
    let set = this.handlers.get(channel);
    const isNew = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    try {
      await this.connect();
    } catch (e) {
      // The handler stays registered: the connection made later LISTENs on its channel.
      this.scheduleReconnect();
      throw e;
    }
    if (isNew) {
      this.listening = this.listening.then(() => this.client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`)).catch((e) => this.onError(e));
      await this.listening;
    }
    return () => set.delete(handler);
  }

  private wakeAll(): void {
    this.handlers.forEach((hs) => hs.forEach((h) => h('')));
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, application_name: 'conversation-service-listen', keepAlive: true });
      client.on('notification', (n) => this.handlers.get(n.channel)?.forEach((h) => h(n.payload ?? '')));
      client.on('error', (e) => {
        this.onError(e);
        client.end().catch(() => undefined);
        if (this.client !== client) return; // a connection that never listened, or one already replaced
        this.client = null;
        this.events?.lost('listen');
        // Wake everyone so they re-poll (they may have missed notifications), then reconnect.
        this.wakeAll();
        this.scheduleReconnect();
      });
      try {
        await client.connect();
        for (const ch of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
      } catch (e) {
        client.end().catch(() => undefined);
        throw e;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.events?.opened('listen');
      if (this.everConnected || this.failures > 0) this.wakeAll(); // for what was committed while no one listened
      this.everConnected = true;
      this.failures = 0;
    })().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const pause = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(this.failures, 4));
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect().catch((e) => {
        this.failures++;
        this.onError(e);
        this.scheduleReconnect();
      });
    }, pause);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.connecting?.catch(() => undefined);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
