// The one place where commands meet I/O: load state, decide, append with the
// expected seq, project, retry on conflict. Deciders never touch the database.
import type { Knex } from 'knex';
import type { PendingEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore } from '../eventstore/store.port.js';
import { Conflict } from '../platform/errors.js';
import { deterministicUuid, type Ids } from '../platform/ids.js';
import { ProjectionGap, type ProjectionEngine } from '../projections/engine.js';
import type { CommandContext, CommandSpec } from './command.js';

const MAX_ATTEMPTS = 5;

export type CommittedListener = (tenantId: string, events: StoredEvent[]) => void;

export class CommandShell {
  private readonly committed: CommittedListener[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly db: Knex,
    private readonly projections: ProjectionEngine,
    private readonly ids: Ids,
  ) {}

  /**
   * Called after a command's events are committed and projected, before its
   * answer is sent: caches of read models (principals, channels) drop what the
   * events changed, so the caller's next request sees its own write.
   */
  onCommitted(listener: CommittedListener): void {
    this.committed.push(listener);
  }

  async execute<S>(ctx: CommandContext, spec: CommandSpec<S>): Promise<StoredEvent[]> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        const stored = await this.attempt(ctx, spec);
        if (stored.length > 0) for (const l of this.committed) l(ctx.tenantId, stored);
        return stored;
      } catch (e) {
        if (!(e instanceof WrongExpectedSeq)) throw e;
        // Someone appended between our read and our append (EventStoreDB mode),
        // or the read models lag the log: catch them up and decide again.
        await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
      }
    }
    throw new Conflict('concurrent_modification', 'The workspace changed while the request was processed; retry it.', { 'Retry-After': '1' });
  }

  /** The id of the `i`th event a command appends: derived from the idempotency key when there is one. */
  private eventId<S>(ctx: CommandContext, spec: CommandSpec<S>, i: number): string {
    return ctx.idempotencyKey ? deterministicUuid(ctx.tenantId, ctx.actor.id, ctx.idempotencyKey, spec.name, String(i)) : this.ids.uuid();
  }

  /**
   * The events an earlier run of this very request (same key, caller and
   * command) appended, or null when there was none. That run committed, but its
   * answer was lost (the process died before storing it, or a 5xx came after
   * the commit), so the retry must answer for what happened rather than decide
   * again on the state its first run produced (a second "close" would be
   * refused as already closed). Postgres store only: the lookup is one index
   * probe in the tenant's transaction; EventStoreDB dedupes the append by ids.
   */
  private async recorded<S>(db: Knex | Knex.Transaction, ctx: CommandContext, spec: CommandSpec<S>): Promise<StoredEvent[] | null> {
    if (!ctx.idempotencyKey) return null;
    const first = await db('events').where({ tenant_id: ctx.tenantId, id: this.eventId(ctx, spec, 0) }).first('seq');
    if (!first) return null;
    // One command's events are contiguous in the tenant's log and numbered in order.
    const after = await this.store.readTenant(ctx.tenantId, Number(first.seq) - 1, 100);
    const mine: StoredEvent[] = [];
    for (const e of after) {
      if (e.id !== this.eventId(ctx, spec, mine.length)) break;
      mine.push(e);
    }
    if (spec.beside) {
      // Its answer may have shown a secret made for that run only (an API key, an endpoint secret), which a
      // re-run cannot show again: refuse plainly rather than answer with a secret that does not work.
      throw new Conflict(
        'idempotency_answer_lost',
        'This request was applied, but the service stopped before its answer was stored, and the answer carried a secret shown only once. Look the resource up and rotate its secret, or create another.',
      );
    }
    return mine;
  }

  private async attempt<S>(ctx: CommandContext, spec: CommandSpec<S>): Promise<StoredEvent[]> {
    let inline = true;
    const stored = await this.store.withTenant(ctx.tenantId, async (session) => {
      inline = session.inline;
      if (session.inline) {
        const replay = await this.recorded(session.db, ctx, spec);
        if (replay) return replay;
      }
      const at = await this.projections.checkpoint(session.db, ctx.tenantId);
      const state = await spec.load(session.db, ctx);
      const decided = spec.decide(state, ctx);
      if (decided.length === 0) return [];
      const events: PendingEvent[] = decided.map((e, i) => ({
        ...e,
        // Derived from the idempotency key where there is one, so a repeated
        // append of the same request is recognised by the store (EventStoreDB dedupes on ids).
        id: this.eventId(ctx, spec, i),
        created_at: ctx.now.toISOString(),
        metadata: {
          actor: ctx.actor,
          ...(ctx.idempotencyKey ? { idempotency_key: ctx.idempotencyKey } : {}),
          ...(ctx.requestId ? { request_id: ctx.requestId } : {}),
        },
      }));
      await spec.beside?.(session.db, decided, ctx);
      const appended = await session.append(events, at);
      if (session.inline) {
        await this.projections.apply(session.db as Knex.Transaction, appended, new Map([[ctx.tenantId, at]]));
      }
      return appended;
    });
    // EventStoreDB mode: project right after the append so the answer reflects the write;
    // the catch-up projector covers a crash between the two.
    if (stored.length > 0 && !inline) {
      await this.db.transaction((trx) => this.projections.apply(trx, stored)).catch(async (e) => {
        if (!(e instanceof ProjectionGap)) throw e;
        await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
      });
    }
    return stored;
  }
}
