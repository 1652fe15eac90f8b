// Many callers' small statements as one: the first call of a key runs at once;
// calls of the same key made while it runs wait and then run together, as one
// statement, and so on. Nothing waits when the service is quiet, and under
// load N concurrent requests cost one round trip instead of N (the same idea as
// the shell's group commit and the webhook workers' group settle).
//
// A batch runs on one pooled connection, in the async context (tenant scope,
// row-level security) of the call that started it. So behind row-level
// security the key is the tenant, and a batch never mixes workspaces; work on
// the owner pool that crosses tenants (the webhook workers' settle) uses one key.

export interface BatchedOptions<I> {
  /** at most this many calls per batch (default 64) */
  max?: number;
  /**
   * Two calls that must not share a batch (e.g. the same idempotency key: the
   * statement could not tell their results apart): the later one waits for
   * the next batch.
   */
  identity?: (item: I) => string;
  /**
   * The first call of a key waits for the end of the current turn of the event
   * loop, so that calls made in the same turn (a group commit's loads, started
   * together) go in one batch instead of one alone and the rest after it.
   * `'microtask'`: only until the code that made it has run to its next await
   * (calls made in one loop, e.g. a group's settles inside its transaction,
   * where waiting for a turn of the event loop would hold the workspace's lock).
   */
  gather?: boolean | 'microtask';
}

interface Waiting<I, O> {
  item: I;
  resolve(o: O): void;
  reject(e: unknown): void;
}

/**
 * Wraps `run(key, items)`, which must return one result per item in order, as
 * a function of one item.
 */
export function batched<I, O>(run: (key: string, items: I[]) => Promise<O[]>, opts: BatchedOptions<I> = {}): (key: string, item: I) => Promise<O> {
  const max = opts.max ?? 64;
  /** per key, the calls waiting for the batch after the one in flight (present while one is) */
  const queues = new Map<string, Waiting<I, O>[]>();

  const take = (queue: Waiting<I, O>[]): Waiting<I, O>[] => {
    if (!opts.identity) return queue.splice(0, max);
    const seen = new Set<string>();
    const batch: Waiting<I, O>[] = [];
    for (let i = 0; i < queue.length && batch.length < max;) {
      const id = opts.identity(queue[i]!.item);
      if (seen.has(id)) {
        i++;
        continue;
      }
      seen.add(id);
      batch.push(...queue.splice(i, 1));
    }
    return batch;
  };

  async function drain(key: string, queue: Waiting<I, O>[]): Promise<void> {
    // No await between the last look at the queue and its removal: a call queued meanwhile is never left behind.
    while (queue.length > 0) {
      const batch = take(queue);
      try {
        const out = await run(
          key,
          batch.map((w) => w.item),
        );
        if (out.length !== batch.length) throw new Error(`a batched statement answered ${out.length} results for ${batch.length} calls`);
        batch.forEach((w, i) => w.resolve(out[i]!));
      } catch (e) {
        for (const w of batch) w.reject(e);
      }
    }
    queues.delete(key);
  }

  return (key, item) =>
    new Promise<O>((resolve, reject) => {
      const queue = queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      const fresh: Waiting<I, O>[] = [{ item, resolve, reject }];
      queues.set(key, fresh);
      if (opts.gather === 'microtask') queueMicrotask(() => void drain(key, fresh));
      else if (opts.gather) setImmediate(() => void drain(key, fresh));
      else void drain(key, fresh);
    });
}

/**
 * `batched` per database handle (a pool, a transaction): calls through one
 * handle batch together, and never with another handle's, whose rows it may
 * not see (a transaction's own writes). `run` gets the handle.
 */
export function batchedOn<H extends object, I, O>(
  run: (db: H, key: string, items: I[]) => Promise<O[]>,
  opts: BatchedOptions<I> = {},
): (db: H, key: string, item: I) => Promise<O> {
  const perHandle = new WeakMap<H, (key: string, item: I) => Promise<O>>();
  return (db, key, item) => {
    let call = perHandle.get(db);
    if (!call) perHandle.set(db, (call = batched((k: string, items: I[]) => run(db, k, items), opts)));
    return call(key, item);
  };
}
