// One LISTEN connection shared by everything in the process that wants to be
// woken by NOTIFY. Reconnects after errors; listeners never see the connection.
import pg from 'pg';

export class PgNotifier {
  private client: pg.Client | null = null;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private connecting: Promise<void> | null = null;
  // LISTENs go one at a time: a pg client must not be handed a query while one runs.
  private listening: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  async listen(channel: string, handler: (payload: string) => void): Promise<() => void> {
    let set = this.handlers.get(channel);
    const isNew = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    await this.connect();
    if (isNew) {
      this.listening = this.listening.then(() => this.client?.query(`LISTEN ${pg.escapeIdentifier(channel)}`)).catch((e) => this.onError(e));
      await this.listening;
    }
    return () => set.delete(handler);
  }

  private connect(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, application_name: 'conversation-service-listen' });
      client.on('notification', (n) => this.handlers.get(n.channel)?.forEach((h) => h(n.payload ?? '')));
      client.on('error', (e) => {
        this.onError(e);
        this.client = null;
        client.end().catch(() => undefined);
        // Wake everyone so they re-poll (they may have missed notifications), then reconnect.
        this.handlers.forEach((hs) => hs.forEach((h) => h('')));
        setTimeout(() => void this.reconnect(), 500).unref();
      });
      await client.connect();
      this.client = client;
      for (const ch of this.handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
    })().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async reconnect(): Promise<void> {
    try {
      await this.connect();
    } catch (e) {
      this.onError(e);
      if (!this.closed) setTimeout(() => void this.reconnect(), 1000).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => undefined);
  }
}
