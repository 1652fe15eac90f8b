// Applies events to every registered projector together with one checkpoint
// per tenant, in one transaction. The checkpoint is the guard that makes
// projection idempotent: events at or below it are skipped, and an event that
// does not follow it directly is a gap, which the caller fills from the log.
import type { Db } from '../platform/db/database.js';
import type { Knex } from 'knex';
import type { StoredEvent } from '../eventstore/envelope.js';
import type { EventStore } from '../eventstore/store.port.js';
import type { Projector } from './projector.js';
import { Writes, type Statement } from './table-batch.js';

export type AnyProjector = Projector<any>;

export class ProjectionGap extends Error {
  constructor(
    readonly tenantId: string,
    readonly checkpoint: number,
    readonly nextSeq: number,
  ) {
    super(`projection gap for tenant ${tenantId}: at ${checkpoint}, next event is ${nextSeq}`);
  }
}

export class ProjectionEngine {
  /** the projectors that run: all but those whose read model is the log itself (see Projector.copiesLog) */
  private readonly running: readonly AnyProjector[];
  /** per event type, the running projectors that handle it; filled as types are met (a rebuild asks for every event) */
  private readonly ofType = new Map<string, readonly AnyProjector[]>();

  /**
   * `logInDatabase`: the log is the Postgres store's `events` table in this database,
   * so projectors that only copy it do not run.
   */
  constructor(
    readonly projectors: readonly AnyProjector[],
    opts: { logInDatabase: boolean },
  ) {
    const names = new Set<string>();
    for (const p of projectors) {
      if (names.has(p.name)) throw new Error(`two projectors are named ${p.name}`);
      names.add(p.name);
    }
    this.running = projectors.filter((p) => !(opts.logInDatabase && p.copiesLog));
  }

  private projectorsOf(type: string): readonly AnyProjector[] {
    let list = this.ofType.get(type);
    if (!list) this.ofType.set(type, (list = this.running.filter((p) => p.handles.includes('*') || p.handles.includes(type))));
    return list;
  }

  /** The checkpoint as a scalar query of the tenant id ($1), for a store to read in the round trip that takes its lock. */
  readonly checkpointQuery = 'SELECT last_seq FROM projection_checkpoints WHERE tenant_id = $1';

  async checkpoint(db: Db, tenantId: string): Promise<number> {
    const row = await db('projection_checkpoints').where({ tenant_id: tenantId }).first('last_seq');
    return row ? Number(row.last_seq) : 0;
  }

  /**
   * Projects `events` (any tenants, seq-ordered per tenant). `known` carries
   * checkpoints the caller already read under the tenant lock, saving a query.
   */
  async apply(trx: Knex.Transaction, events: StoredEvent[], known?: Map<string, number>): Promise<void> {
    const byTenant = new Map<string, StoredEvent[]>();
    for (const e of events) {
      const list = byTenant.get(e.tenant_id);
      if (list) list.push(e);
      else byTenant.set(e.tenant_id, [e]);
    }
    const fresh: StoredEvent[] = [];
    const moves: { tenant_id: string; last_seq: number }[] = [];
    // One round trip for every tenant whose checkpoint the caller did not already hold.
    const unknown = [...byTenant.keys()].filter((t) => known?.get(t) === undefined);
    const stored = new Map<string, number>();
    if (unknown.length > 0) {
      const rows = await trx('projection_checkpoints').whereIn('tenant_id', unknown).forUpdate().select('tenant_id', 'last_seq');
      for (const r of rows) stored.set(r.tenant_id, Number(r.last_seq));
    }
    for (const [tenant, list] of byTenant) {
      const at = known?.get(tenant) ?? stored.get(tenant) ?? 0;
      const news = list.filter((e) => e.seq > at);
      if (news.length === 0) continue;
      news.forEach((e, i) => {
        if (e.seq !== at + 1 + i) throw new ProjectionGap(tenant, at + i, e.seq);
      });
      fresh.push(...news);
      moves.push({ tenant_id: tenant, last_seq: news[news.length - 1]!.seq });
    }
    if (fresh.length === 0) return;
    await this.fold(fresh, moves).run(trx);
  }

  /**
   * The statements that project events of one tenant which directly follow
   * checkpoint `at`, without running them: the shell sends them in the same
   * statement as the append that stores the events (one round trip).
   */
  statementsFor(tenantId: string, events: StoredEvent[], at: number): Statement[] {
    events.forEach((e, i) => {
      if (e.tenant_id !== tenantId || e.seq !== at + 1 + i) throw new ProjectionGap(tenantId, at + i, e.seq);
    });
    if (events.length === 0) return [];
    return this.fold(events, [{ tenant_id: tenantId, last_seq: events[events.length - 1]!.seq }]).statements();
  }

  /** Every projector folds its events synchronously into writes, with the checkpoint moves after them. */
  private fold(fresh: StoredEvent[], moves: { tenant_id: string; last_seq: number }[]): Writes {
    const perProjector = new Map<AnyProjector, StoredEvent[]>();
    for (const e of fresh) {
      for (const p of this.projectorsOf(e.type)) {
        const list = perProjector.get(p);
        if (list) list.push(e);
        else perProjector.set(p, [e]);
      }
    }
    // They and the checkpoint move go to Postgres as one statement (a rebuild folds the next batch while it runs).
    const writes = new Writes();
    for (const p of this.running) if (perProjector.has(p)) p.project(perProjector.get(p)!, writes);
    // Only ever forward: with batches pipelined (rebuild), an earlier batch's move may land after a later one's.
    writes.add({
      sql: `INSERT INTO projection_checkpoints (tenant_id, last_seq) SELECT tenant_id, last_seq FROM jsonb_to_recordset(?::jsonb) AS v(tenant_id uuid, last_seq bigint)
       ON CONFLICT (tenant_id) DO UPDATE SET last_seq = GREATEST(projection_checkpoints.last_seq, EXCLUDED.last_seq)`,
      bindings: [JSON.stringify(moves)],
    });
    return writes;
  }

  /** Brings one tenant's read models up to the log's head (EventStoreDB mode, or after a crash). */
  async catchUpTenant(db: Knex, store: EventStore, tenantId: string): Promise<void> {
    for (;;) {
      const at = await this.checkpoint(db, tenantId);
      const events = await store.readTenant(tenantId, at, 1000);
      if (events.length === 0) return;
      await db.transaction((trx) => this.apply(trx, events));
    }
  }

  /** Every table the projectors own, in an order safe to empty (those of projectors that do not run too: rebuild empties what an earlier version left there). */
  tables(): string[] {
    return [...new Set(this.projectors.flatMap((p) => p.tables)), 'projection_checkpoints'];
  }
}
