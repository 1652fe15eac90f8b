// The second tenancy wall (design invariant 15): row-level security.
//
// Every tenant table has a policy admitting only rows whose tenant_id equals
// the session's `app.tenant_id`, for the role TENANT_ROLE (migration 014).
// `scope.run(tenantId, fn)` marks everything `fn` does as that tenant's
// (AsyncLocalStorage). Whenever knex takes a connection from the pool (for a
// query, or for a whole transaction) inside a scope, the connection is put in
// that tenant's role and setting first; outside any scope it is put back to
// the connecting (owner) role, which RLS does not apply to. So a query that
// forgot its tenant filter still sees only the caller's workspace, and a row
// written for another workspace is refused by the database.
//
// Why per connection at acquire time rather than SET LOCAL in a transaction
// per request: it is set before any transaction begins on the connection, so a
// rollback cannot undo it, and it costs one round trip only when a connection
// changes tenant (none when it serves the same tenant again), where a
// transaction per request costs three on every request and holds a pooled
// connection for the request's whole life.
//
// The owner role is the documented bypass, used by what crosses tenants on
// purpose: authentication (a key names its tenant),
// the dispatcher, delivery workers, sweeps, migrations and rebuild.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { aroundAcquire, poolQueues, releaseRaw, type PoolQueues } from './driver-hooks.js';

// Named here and in migration 014, which creates it.
export const TENANT_ROLE = 'conversation_service_tenant';

interface PgConnection {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  /** the tenant this connection's session is set to; undefined/null = the owner role */
  __tenant?: string | null;
}

export interface TenantScope {
  /** Runs `fn` as `tenantId`: every connection it takes is behind row-level security for that tenant. */
  run<T>(tenantId: string, fn: () => Promise<T>): Promise<T>;
  /** The tenant of the current scope, if any. */
  current(): string | null;
  /** Puts another pool behind the same scope (the workers' pool). */
  cover(pool: Knex): void;
  /**
   * Runs `fn` outside any tenant scope: the connections it takes are in the
   * owner role. For a lookup that must use an index row-level security keeps
   * the planner from (a search's full-text probe): it names its tenant itself.
   */
  outside<T>(fn: () => Promise<T>): Promise<T>;
  /** Times a connection was put in another tenant's role (or back to the owner's) since start: what affinity failed to spare. */
  switches(): number;
}

/** A caller waiting for a connection (tarn's pending acquire), tagged with the tenant it wants. */
interface Waiter {
  __tenant?: string | null;
  /** how many later waiters were served before it (bounded: see preferWaiter) */
  __passed?: number;
}

/** The parts of knex's pool (tarn) that affinity reads (driver-hooks.ts). */
type TarnPool = PoolQueues<PgConnection, Waiter>;

/** How far down the waiters a released connection looks for one of its own tenant's, and how often one waiter may be passed. */
const LOOK_AHEAD = 8;
const MAX_PASSED = 4;

/**
 * Affinity: when the next acquire is served from the idle connections (nobody
 * waits), put one already set to the wanted tenant where the pool takes from,
 * so that workspaces sharing a pool switch roles only when none of theirs is
 * idle. Reads tarn's internals; without them it does nothing.
 */
function preferFree(pool: TarnPool | undefined, want: string | null): void {
  const free = pool?.free;
  if (!free || !Array.isArray(free) || free.length < 2 || (pool?.pendingAcquires?.length ?? 0) > 0) return;
  const last = free.length - 1;
  if ((free[last]!.resource.__tenant ?? null) === want) return;
  for (let i = last - 1; i >= 0; i--) {
    if ((free[i]!.resource.__tenant ?? null) === want) {
      free.push(...free.splice(i, 1));
      return;
    }
  }
}

/**
 * Affinity when every connection is busy: a connection being released goes to
 * the first of the next few waiters that wants its tenant, ahead of waiters of
 * other tenants, so it keeps its role. Bounded: no waiter is passed more than
 * MAX_PASSED times, so none waits much longer than in order. Reads tarn's
 * internals (its waiters, served first to last); without them it does nothing.
 */
function preferWaiter(pool: TarnPool | undefined, conn: PgConnection): void {
  const waiting = pool?.pendingAcquires;
  if (!waiting || !Array.isArray(waiting) || waiting.length < 2) return;
  const tenant = conn.__tenant ?? null;
  if ((waiting[0]!.__tenant ?? null) === tenant) return;
  const end = Math.min(waiting.length, LOOK_AHEAD);
  for (let i = 1; i < end; i++) {
    if ((waiting[i - 1]!.__passed ?? 0) >= MAX_PASSED) return;
    if ((waiting[i]!.__tenant ?? null) !== tenant) continue;
    for (let j = 0; j < i; j++) waiting[j]!.__passed = (waiting[j]!.__passed ?? 0) + 1;
    waiting.unshift(...waiting.splice(i, 1));
    return;
  }
}

export function tenantScope(pool: Knex, opts: { enabled: boolean }): TenantScope {
  const als = new AsyncLocalStorage<{ tenantId: string }>();
  let switches = 0;
  const cover = (pool: Knex) => {
    if (!opts.enabled) return;
    const queues = () => poolQueues<PgConnection, Waiter>(pool);
    aroundAcquire<PgConnection>(pool, {
      release: (conn, release) => {
        preferWaiter(queues(), conn);
        return release(conn);
      },
      acquire: async (acquire) => {
        const want = als.getStore()?.tenantId ?? null;
        preferFree(queues(), want);
        const waiting = queues()?.pendingAcquires;
        const before = Array.isArray(waiting) ? waiting.length : -1;
        const acquiring = acquire();
        // knex asks tarn synchronously; when no connection was free, the new waiter is the last: tag it with its tenant.
        if (Array.isArray(waiting) && waiting.length === before + 1) waiting[waiting.length - 1]!.__tenant = want;
        const conn = await acquiring;
        if ((conn.__tenant ?? null) === want) return conn;
        switches++;
        try {
          if (want) await conn.query("SELECT set_config('role', $1, false), set_config('app.tenant_id', $2, false)", [TENANT_ROLE, want]);
          else await conn.query("SELECT set_config('role', 'none', false), set_config('app.tenant_id', '', false)");
          conn.__tenant = want;
        } catch (e) {
          conn.__tenant = undefined;
          await releaseRaw(pool, conn).catch(() => undefined);
          throw e;
        }
        return conn;
      },
    });
  };
  cover(pool);
  return {
    run(tenantId, fn) {
      const outer = als.getStore();
      if (outer && outer.tenantId !== tenantId) throw new Error(`tenant scope ${outer.tenantId} cannot enter ${tenantId}`);
      return outer ? fn() : als.run({ tenantId }, fn);
    },
    current: () => als.getStore()?.tenantId ?? null,
    cover,
    outside: (fn) => als.exit(fn),
    switches: () => switches,
  };
}
