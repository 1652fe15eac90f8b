// Readers of the log get events with their personal fields opened (see
// forgettable.ts): projectors, catch-up, rebuild and the dispatcher all read
// through this decorator, so none of them handles sealed payloads itself.
// Appends pass through: the shell seals before it appends.
import type { Knex } from 'knex';
import type { StoredEvent } from './envelope.js';
import type { EventLine } from './export-line.js';
import type { Forgettable } from './forgettable.js';
import type { EventStore, ReadAllResult, ReadModels, SubscribeOptions, Subscription, TenantSession, ExpectedSeq } from './store.port.js';
import type { PendingEvent } from './envelope.js';

export class OpeningStore implements EventStore {
  readonly kind: EventStore['kind'];

  constructor(
    private readonly inner: EventStore,
    private readonly forgettable: Forgettable,
    private readonly db: Knex,
  ) {
    this.kind = inner.kind;
  }

  private open(events: StoredEvent[]): Promise<StoredEvent[]> {
    return this.forgettable.open(this.db, events);
  }

  withTenant<T>(tenantId: string, work: (s: TenantSession) => Promise<T>, readModels?: ReadModels): Promise<T> {
    return this.inner.withTenant(tenantId, work, readModels);
  }

  append(tenantId: string, events: PendingEvent[], expectedSeq: ExpectedSeq): Promise<StoredEvent[]> {
    return this.inner.append(tenantId, events, expectedSeq);
  }

  async readTenant(tenantId: string, afterSeq: number, limit: number, opts?: { sealed?: boolean }): Promise<StoredEvent[]> {
    const events = await this.inner.readTenant(tenantId, afterSeq, limit);
    return opts?.sealed ? events : this.open(events);
  }

  readTenantLines(tenantId: string, afterSeq: number, limit: number): Promise<EventLine[]> {
    return this.inner.readTenantLines(tenantId, afterSeq, limit);
  }

  async readAggregate(tenantId: string, aggregateId: string, range: { afterSeq: number; toSeq?: number; limit: number }): Promise<StoredEvent[]> {
    return this.open(await this.inner.readAggregate(tenantId, aggregateId, range));
  }

  async readByIds(tenantId: string, ids: readonly string[]): Promise<StoredEvent[]> {
    return this.open(await this.inner.readByIds(tenantId, ids));
  }

  head(tenantId: string): Promise<number> {
    return this.inner.head(tenantId);
  }

  async readAll(after: string | null, limit: number): Promise<ReadAllResult> {
    const r = await this.inner.readAll(after, limit);
    return { ...r, events: await this.open(r.events) };
  }

  subscribe(opts: SubscribeOptions): Subscription {
    if (opts.sealed) return this.inner.subscribe(opts);
    return this.inner.subscribe({ ...opts, handle: async (events, checkpoint) => opts.handle(await this.open(events), checkpoint) });
  }

  firstUnhashed(tenantId: string, afterSeq: number, toSeq: number): Promise<number | null> {
    return this.inner.firstUnhashed(tenantId, afterSeq, toSeq);
  }

  countAll(): Promise<number | null> {
    return this.inner.countAll();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  async quiet(): Promise<void> {
    await this.inner.quiet?.();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
