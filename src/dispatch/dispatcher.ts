// The subscription dispatcher (design invariant 4): follows the whole log and
// turns each event into delivery rows, in the same transaction that moves its
// checkpoint and its own view of endpoints and channels. So a crash anywhere
// loses nothing (the batch is redone) and routing is decided by the log at the
// event, however far behind the dispatcher runs.
//
// Several processes may run it. Only the holder of a session-level advisory
// lock subscribes; the others retry to take the lock every few seconds and
// take over when the holder's connection dies. Two more walls stand behind the
// lock: each batch compares-and-sets the checkpoint row (UPDATE ... WHERE position = the one it read),
// so a holder that lost its lock unnoticed cannot write a stale batch, and
// delivery rows are unique per (target, seq, series) and inserted with ON
// CONFLICT DO NOTHING, so a batch dispatched twice creates nothing new.
import type { Knex } from 'knex';
import { toEnvelope, type StoredEvent } from '../eventstore/envelope.js';
import type { EventStore, Subscription } from '../eventstore/store.port.js';
import type { Clock } from '../platform/clock.js';
import { deterministicUuid } from '../platform/ids.js';
import type { Logger } from '../platform/logger.js';
import type { Worker } from '../platform/worker.js';
import { randomUUID } from 'node:crypto';
import { DELIVERIES_CHANNEL, dispatchInOneStatement, insertDeliveries, type Claimed, type LeasedDelivery, type NewDelivery } from './deliveries.repo.js';
import type { Handoff } from './delivery-worker.js';
import { evolve, targetsFor, type RoutingRules, type TenantView, type ViewChange } from './routing.js';
import { acquireRaw, releaseRaw } from '../platform/db/driver-hooks.js';
import type { ConnectionEvents } from '../platform/db/connection-watch.js';

export const DISPATCHER_NAME = 'webhook_dispatcher';
const LOCK_RETRY_MS = 2000;
const VIEW_CACHE_TENANTS = 10_000;

class StaleCheckpoint extends Error {}

interface PgConn {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  on(event: 'error' | 'end', fn: (e?: unknown) => void): void;
  removeListener(event: 'error' | 'end', fn: (e?: unknown) => void): void;
}

/**
 * The batch's tenants' views: from `cache` when there, else from the tables.
 * The cache is only sound while this process holds the dispatcher lock (no
 * one else writes the dispatch_* tables) and is dropped after any failed batch,
 * because routing evolves the views in place before the transaction commits.
 */
async function loadViews(trx: Knex, tenants: string[], cache: Map<string, TenantView>): Promise<Map<string, TenantView>> {
  const views = new Map<string, TenantView>();
  const missing = tenants.filter((t) => {
    const v = cache.get(t);
    if (v) views.set(t, v);
    return !v;
  });
  if (missing.length === 0) return views;
  for (const t of missing) views.set(t, { endpoints: new Map(), channels: new Map() });
  await fill(trx, missing, views);
  if (cache.size + missing.length > VIEW_CACHE_TENANTS) cache.clear();
  for (const t of missing) cache.set(t, views.get(t)!);
  return views;
}

async function fill(trx: Knex, tenants: string[], views: Map<string, TenantView>): Promise<void> {
  const endpoints = await trx('dispatch_endpoints').whereIn('tenant_id', tenants);
  for (const r of endpoints) {
    views
      .get(r.tenant_id)!
      .endpoints.set(r.endpoint_id, { tenantId: r.tenant_id, endpointId: r.endpoint_id, url: r.url, eventNames: r.event_names, enabled: r.enabled });
  }
  const channels = await trx('dispatch_channels').whereIn('tenant_id', tenants);
  for (const r of channels)
    views.get(r.tenant_id)!.channels.set(r.channel_id, { tenantId: r.tenant_id, channelId: r.channel_id, webhookUrl: r.webhook_url, enabled: r.enabled });
}

async function writeChange(trx: Knex.Transaction, c: ViewChange): Promise<void> {
  switch (c.kind) {
    case 'endpoint_put':
      await trx('dispatch_endpoints')
        .insert({ tenant_id: c.view.tenantId, endpoint_id: c.view.endpointId, url: c.view.url, event_names: c.view.eventNames, enabled: c.view.enabled })
        .onConflict(['tenant_id', 'endpoint_id'])
        .merge();
      return;
    case 'endpoint_deleted':
      await trx('dispatch_endpoints').where({ tenant_id: c.tenantId, endpoint_id: c.endpointId }).del();
      // Deliveries created while the dispatcher lagged behind the deletion go with the endpoint.
      await trx('webhook_deliveries').where({ tenant_id: c.tenantId, target_kind: 'endpoint', target_id: c.endpointId }).del();
      return;
    case 'channel_put':
      await trx('dispatch_channels')
        .insert({ tenant_id: c.view.tenantId, channel_id: c.view.channelId, webhook_url: c.view.webhookUrl, enabled: c.view.enabled })
        .onConflict(['tenant_id', 'channel_id'])
        .merge();
      return;
    case 'channel_deleted':
      await trx('dispatch_channels').where({ tenant_id: c.tenantId, channel_id: c.channelId }).del();
      // What its bridge had still to get goes with it, as an endpoint's deliveries go with the endpoint.
      await trx('webhook_deliveries').where({ tenant_id: c.tenantId, target_kind: 'channel', target_id: c.channelId }).del();
      return;
    default: {
      const never: never = c;
      return never;
    }
  }
}

/** What a batch created: how many deliveries, and those leased to this process's worker (to adopt once committed). */
export interface Dispatched {
  created: number;
  leased: Claimed[];
  /** targets of the send slots reserved for this batch that no created row uses: give them back */
  unused: string[];
}

/** What a batch owes: the view changes it makes, in log order, and its delivery rows (some leased to the worker). */
interface Routed {
  changes: ViewChange[];
  rows: (NewDelivery | LeasedDelivery)[];
}

/**
 * Routes one batch without writing: the deliveries it owes and the view
 * changes it makes, applied in log order to `cache`'s views (read through `db`
 * for tenants not in it: only the lock holder writes those tables). With a
 * `handoff` and a batch that reached the end of the log (`live`), deliveries
 * the worker has room for are leased to it (see Handoff) when their endpoint is
 * still enabled after the batch; the rest wait for a claim, woken by NOTIFY. A
 * batch read behind a backlog hands nothing over: an endpoint disabled further
 * on must find its deliveries waiting (a pause), which only the claim checks.
 */
async function routeBatch(
  db: Knex,
  rules: RoutingRules,
  events: StoredEvent[],
  now: Date,
  cache: Map<string, TenantView>,
  handoff?: Pick<Handoff, 'leaseMs' | 'reserve'> & { live: boolean },
): Promise<Routed> {
  const views = await loadViews(db, [...new Set(events.map((e) => e.tenant_id))], cache);
  let deliveries: NewDelivery[] = [];
  const changes: ViewChange[] = [];
  for (const e of events) {
    const view = views.get(e.tenant_id)!;
    const targets = targetsFor(e, view, rules);
    if (targets.length > 0) {
      // The bytes every attempt sends (spec 2.4), personal fields still sealed: they are opened at
      // send time, so an erasure also forgets the delivery records (delivery-worker.ts).
      const body = JSON.stringify(toEnvelope({ ...e, payload: e.sealed_payload ?? e.payload }));
      for (const t of targets) {
        deliveries.push({
          id: deterministicUuid('webhook_delivery', e.tenant_id, t.kind, t.id, String(e.seq), '0'),
          tenant_id: e.tenant_id,
          target_kind: t.kind,
          target_id: t.id,
          series: 0,
          seq: e.seq,
          event_type: e.type,
          url: t.url,
          body,
          created_at: now,
        });
      }
    }
    const change = evolve(view, e, rules);
    if (!change) continue;
    changes.push(change);
    if (change.kind === 'endpoint_deleted') {
      deliveries = deliveries.filter((d) => !(d.tenant_id === change.tenantId && d.target_kind === 'endpoint' && d.target_id === change.endpointId));
    }
    if (change.kind === 'channel_deleted') {
      deliveries = deliveries.filter((d) => !(d.tenant_id === change.tenantId && d.target_kind === 'channel' && d.target_id === change.channelId));
    }
  }
  const lease = handoff?.live ? { leased_until: new Date(now.getTime() + handoff.leaseMs), lease_token: randomUUID() } : null;
  const rows = deliveries.map((d): NewDelivery | LeasedDelivery => {
    const view = views.get(d.tenant_id)!;
    const sendable = (d.target_kind === 'channel' ? view.channels.get(d.target_id) : view.endpoints.get(d.target_id))?.enabled === true;
    return lease && sendable && handoff!.reserve(d.target_id) ? { ...d, ...lease } : d;
  });
  return { changes, rows };
}

/** What became of a batch's rows once written: `created` holds the ids its statement inserted. */
function outcome(rows: Routed['rows'], created: Set<string>): Dispatched {
  const leased: Claimed[] = [];
  const unused: string[] = [];
  for (const d of rows) {
    const mine = 'lease_token' in d;
    if (!created.has(d.id)) {
      // dispatched before (a batch done again): the row there is not this batch's to send
      if (mine) unused.push(d.target_id);
    } else if (mine) {
      leased.push({
        id: d.id,
        tenant_id: d.tenant_id,
        target_kind: d.target_kind,
        target_id: d.target_id,
        seq: d.seq,
        url: d.url,
        body: d.body,
        attempts: 0,
        lease_token: d.lease_token,
        created_at: d.created_at,
      });
    }
  }
  return { created: created.size, leased, unused };
}

/** Whether a delivery worker must be woken for rows of the batch that wait for a claim (not leased to this process's). */
const waits = (rows: Routed['rows']): boolean => rows.some((d) => !('lease_token' in d));

/** Writes a routed batch in `trx`: its view changes, then its deliveries, waking the workers for those left to a claim. */
async function writeRouted(trx: Knex.Transaction, { changes, rows }: Routed): Promise<Dispatched> {
  for (const c of changes) await writeChange(trx, c);
  const created = await insertDeliveries(trx, rows);
  const done = outcome(rows, created);
  if (waits(rows.filter((d) => created.has(d.id)))) await trx.raw('SELECT pg_notify(?, ?)', [DELIVERIES_CHANNEL, '']);
  return done;
}

/** Routes one batch (routeBatch) and writes it in `trx` (writeRouted). */
export async function dispatchBatch(
  trx: Knex.Transaction,
  rules: RoutingRules,
  events: StoredEvent[],
  now: Date,
  cache = new Map<string, TenantView>(),
  handoff?: Pick<Handoff, 'leaseMs' | 'reserve'> & { live: boolean },
): Promise<Dispatched> {
  return writeRouted(trx, await routeBatch(trx, rules, events, now, cache, handoff));
}

export interface DispatcherDeps {
  db: Knex;
  store: EventStore;
  clock: Clock;
  log: Logger;
  /** which events create or change destinations, and which go to a channel's bridge */
  rules: RoutingRules;
  /** this process's delivery worker, to hand fresh deliveries to (optional: without it they wait for a claim) */
  handoff?: Handoff;
  /** told when the lock's connection breaks and when the lock is taken again (metrics) */
  connections?: ConnectionEvents;
}

export function webhookDispatcher(deps: DispatcherDeps, opts: { batchSize?: number } = {}): Worker {
  const { db, store, clock, log, rules, handoff, connections } = deps;
  let stopped = false;
  let wakeStop: (() => void) | null = null;
  const stopSignal = new Promise<void>((resolve) => (wakeStop = resolve));
  let loop: Promise<void> | null = null;

  const sleep = (ms: number) => Promise.race([stopSignal, new Promise<void>((r) => setTimeout(r, ms).unref())]);

  /** Holds the lock on one pooled connection for as long as this process dispatches. */
  async function tryLock(): Promise<PgConn | null> {
    const conn = await acquireRaw<PgConn>(db);
    try {
      const r = await conn.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [`subscription:${DISPATCHER_NAME}`]);
      if (r.rows[0]?.ok === true) return conn;
    } catch (e) {
      log.warn({ err: e }, 'webhook dispatcher: lock attempt failed');
    }
    await releaseRaw(db, conn);
    return null;
  }

  async function unlock(conn: PgConn): Promise<void> {
    // Unlock before the connection goes back to the pool, or the pool would keep the lock alive.
    await conn.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await releaseRaw(db, conn);
  }

  async function runWhileLocked(conn: PgConn): Promise<void> {
    let lost!: () => void;
    const lostSignal = new Promise<void>((resolve) => (lost = resolve));
    // The lock lives and dies with its session: a primary change (failover) ends it, and the
    // loop takes it again, through a new connection, on whichever server is the primary now.
    let broke = false;
    const onLost = () => {
      if (!broke) connections?.lost('lock');
      broke = true;
      lost();
    };
    conn.on('error', onLost);
    conn.on('end', onLost);
    const batchSize = opts.batchSize ?? 500;
    let expected: string | null = (await db('subscription_checkpoints').where({ name: DISPATCHER_NAME }).first('position'))?.position ?? null;
    log.info({ checkpoint: expected }, 'webhook dispatcher: lock taken, dispatching');
    const views = new Map<string, TenantView>();
    let sub: Subscription | null = null;
    try {
      sub = store.subscribe({
        after: expected,
        batchSize,
        // Routing reads no personal field and the bodies keep them sealed: opening every event
        // (a data-key lookup per batch, a decryption per field) was work thrown away.
        sealed: true,
        handle: async (events, checkpoint) => {
          // The send slots this batch reserves, given back in full if it does not commit.
          const taken: string[] = [];
          const tracked = handoff && {
            // a full page may have more behind it: see dispatchBatch
            live: events.length < batchSize,
            leaseMs: handoff.leaseMs,
            reserve: (target: string) => handoff.reserve(target) && taken.push(target) > 0,
          };
          let dispatched: Dispatched;
          try {
            // A batch that changes no destination (nearly every one) is one statement: no BEGIN and COMMIT of its
            // own, one round trip between the log's read and the hand-off where a transaction took four.
            const routed = await routeBatch(db, rules, events, clock.now(), views, tracked);
            if (expected !== null && routed.changes.length === 0) {
              const { moved, created } = await dispatchInOneStatement(
                db,
                { name: DISPATCHER_NAME, expected, position: checkpoint },
                routed.rows,
                waits(routed.rows),
              );
              if (!moved) throw new StaleCheckpoint('the dispatcher checkpoint moved under this process');
              dispatched = outcome(routed.rows, created);
            } else
              dispatched = await db.transaction(async (trx) => {
                const d = await writeRouted(trx, routed);
                // Compare-and-set: the checkpoint moves only from where this process left it. The same statement
                // makes this transaction's commit asynchronous (no wait for the WAL flush): losing it in a crash
                // loses the checkpoint with the deliveries, so the batch is dispatched again, and everything it
                // reads is already durable. At worst a delivery is sent twice, which at-least-once allows.
                const moved =
                  expected === null
                    ? await trx.raw(
                        "INSERT INTO subscription_checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO NOTHING RETURNING name, set_config('synchronous_commit', 'off', true)",
                        [DISPATCHER_NAME, checkpoint],
                      )
                    : await trx.raw(
                        "UPDATE subscription_checkpoints SET position = ? WHERE name = ? AND position = ? RETURNING name, set_config('synchronous_commit', 'off', true)",
                        [checkpoint, DISPATCHER_NAME, expected],
                      );
                if (moved.rows.length === 0) throw new StaleCheckpoint('the dispatcher checkpoint moved under this process');
                return d;
              });
          } catch (e) {
            views.clear(); // evolved in place for a batch that did not commit
            handoff?.release(taken);
            throw e;
          }
          handoff?.release(dispatched.unused);
          handoff?.adopt(dispatched.leased);
          expected = checkpoint;
        },
        onError: (e) => {
          if (e instanceof StaleCheckpoint) return lost();
          log.warn({ err: e }, 'webhook dispatcher error; retrying');
        },
      });
      await Promise.race([lostSignal, stopSignal]);
    } finally {
      await sub?.stop();
      conn.removeListener('error', onLost);
      conn.removeListener('end', onLost);
      await unlock(conn);
    }
  }

  return {
    name: 'webhook-dispatcher',
    async start() {
      loop = (async () => {
        while (!stopped) {
          try {
            const conn = await tryLock();
            if (conn) connections?.opened('lock');
            if (conn) await runWhileLocked(conn);
          } catch (e) {
            log.warn({ err: e }, 'webhook dispatcher: lost its lock or connection; retrying');
          }
          if (!stopped) await sleep(LOCK_RETRY_MS);
        }
      })();
    },
    async stop() {
      stopped = true;
      wakeStop?.();
      await loop;
    },
  };
}
