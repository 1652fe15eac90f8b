// One workspace's commands, one after another, within this process: the layer
// that stands in for the Postgres store's tenant lock when the store takes none
// (EventStoreDB, whose expected revision is its only concurrency check). Without
// it the commands of one workspace in one process race each other for its head
// and the losers decide again, up to their attempts, then 409: ten concurrent
// replies to one workspace got 409s. Queued, they decide one after another; only
// other processes' writes still cost a retry. The Postgres store needs none of
// this: its commands share transactions through group-commit.ts instead.

export class TenantQueue {
  /** the tail of each tenant's queue; only tenants with commands in flight are here */
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after the tenant's earlier commands of this process have settled, whatever their outcome. */
  run<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    const mine = (this.tails.get(tenantId) ?? Promise.resolve()).then(fn);
    const tail = mine.catch(() => undefined);
    this.tails.set(tenantId, tail);
    // The last in the queue removes it.
    void tail.then(() => {
      if (this.tails.get(tenantId) === tail) this.tails.delete(tenantId);
    });
    return mine;
  }

  /** How many tenants have commands in flight (tests: the map empties). */
  get size(): number {
    return this.tails.size;
  }
}
