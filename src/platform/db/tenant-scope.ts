// The second tenancy wall (design invariant 15): row-level security.
//
// Every tenant table has a policy admitting only rows whose tenant_id equals
// the transaction's `app.tenant_id` setting, for the role TENANT_ROLE. An
// authenticated request runs inside `scope.run(tenantId, fn)`: one transaction
// that takes that role and setting (SET LOCAL semantics, gone at commit), and
// every query the request makes through `scope.db` runs in it, wherever in the
// code it is issued (AsyncLocalStorage). A query that forgot its tenant filter
// still sees only the caller's workspace.
//
// Outside a scope `scope.db` is the pool as connected: the owner role, which
// RLS does not apply to. That is the documented bypass, used by what crosses
// tenants on purpose: authentication (a key names its tenant), the dispatcher,
// delivery workers, sweeps, migrations and rebuild.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

// Named here and in migration 014, which creates it.
export const TENANT_ROLE = 'conversation_service_tenant';

interface Store {
  trx: Knex.Transaction;
  tenantId: string;
  afterCommit: (() => void)[];
}

export interface TenantScope {
  /** The pool, or the current scope's transaction. */
  readonly db: Knex;
  /** Runs `fn` as `tenantId` behind row-level security; commits when it resolves, rolls back when it throws. */
  run<T>(tenantId: string, fn: () => Promise<T>): Promise<T>;
  /** The tenant of the current scope, if any. */
  current(): string | null;
  /** Runs `fn` once the current scope commits (now, outside a scope): NOTIFY and cache invalidation must follow the commit. */
  afterCommit(fn: () => void): void;
}

export function tenantScope(pool: Knex, opts: { enabled: boolean }): TenantScope {
  const als = new AsyncLocalStorage<Store>();
  const target = (): Knex => als.getStore()?.trx ?? pool;
  // A knex instance is a function with methods; the proxy forwards both to the scope's transaction or the pool.
  const db = new Proxy(pool, {
    apply: (_t, thisArg, args) => Reflect.apply(target() as unknown as (...a: unknown[]) => unknown, thisArg, args),
    get: (_t, prop) => {
      const t = target();
      const v = Reflect.get(t, prop, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  }) as Knex;

  return {
    db,
    async run(tenantId, fn) {
      const outer = als.getStore();
      if (outer) {
        if (outer.tenantId !== tenantId) throw new Error(`tenant scope ${outer.tenantId} cannot enter ${tenantId}`);
        return fn();
      }
      if (!opts.enabled) return fn();
      const afterCommit: (() => void)[] = [];
      const result = await pool.transaction(async (trx) => {
        // One round trip: the role RLS applies to, and the tenant its policies admit, both local to this transaction.
        await trx.raw("SELECT set_config('role', ?, true), set_config('app.tenant_id', ?, true)", [TENANT_ROLE, tenantId]);
        return als.run({ trx, tenantId, afterCommit }, fn);
      });
      for (const f of afterCommit) f();
      return result;
    },
    current: () => als.getStore()?.tenantId ?? null,
    afterCommit(fn) {
      const s = als.getStore();
      if (s) s.afterCommit.push(fn);
      else fn();
    },
  };
}
