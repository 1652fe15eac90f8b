// A small read-through cache of read-model lookups, per tenant, with two ways
// to drop entries: synchronously after a local command commits (so the
// caller's next request sees its own write), and by NOTIFY from other
// processes. A generation number per tenant stops a lookup that started before
// an invalidation from putting its stale answer back afterwards. The TTL is a
// last resort for a lost cross-process notification.
export class TenantCache<V> {
  private readonly entries = new Map<string, { tenantId: string; value: V; expires: number }>();
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  generation(tenantId: string): number {
    return (this.generations.get(tenantId) ?? 0) + this.epoch * 1_000_000_000;
  }

  get(key: string, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores `value` read under `generation`; dropped if the tenant was invalidated meanwhile. */
  set(key: string, tenantId: string, value: V, generation: number, now = Date.now()): void {
    if (this.generation(tenantId) !== generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { tenantId, value, expires: now + this.ttlMs });
  }

  /**
   * Drops everything: after the LISTEN connection dropped, notifications may
   * have been missed, so no entry can be trusted. Every tenant's generation
   * moves, so lookups already under way cannot put stale answers back.
   */
  invalidateAll(): void {
    for (const t of new Set([...this.generations.keys(), ...[...this.entries.values()].map((e) => e.tenantId)])) {
      this.generations.set(t, (this.generations.get(t) ?? 0) + 1);
    }
    this.epoch++;
    this.entries.clear();
  }

  invalidate(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    for (const [k, e] of this.entries) if (e.tenantId === tenantId) this.entries.delete(k);
  }
}
