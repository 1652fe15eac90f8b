// The one place where commands meet I/O: load state, decide, append with the
// expected seq, project, retry on conflict. Deciders never touch the database.
import type { Knex } from 'knex';
import type { NewEvent, PendingEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore } from '../eventstore/store.port.js';
import { Conflict } from '../platform/errors.js';
import { deterministicUuid, type Ids } from '../platform/ids.js';
import { ProjectionGap, type ProjectionEngine } from '../projections/engine.js';
import type { CommandContext, CommandSpec } from './command.js';

const MAX_ATTEMPTS = 5;
/** No command appends more events than this (a replay looks for at most this many). */
export const MAX_EVENTS_PER_COMMAND = 256;

export type CommittedListener = (tenantId: string, events: StoredEvent[]) => void;

/** Event ids of a command sent with an Idempotency-Key: the same request always appends the same ids. */
export const commandEventId = (ctx: CommandContext, command: string, index: number): string =>
  deterministicUuid(ctx.tenantId, ctx.actor.id, ctx.idempotencyKey ?? '', command, String(index));

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

  /**
   * Runs a command and returns the events it committed. Answers are built from
   * these events (their ids), never from ids the caller minted: on a resumed
   * request they are the events the earlier, crashed attempt committed.
   */
  async execute<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
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

  /** The events an earlier attempt of this request committed, if it did. */
  private async earlierCommit<E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<unknown, E>): Promise<StoredEvent<E>[]> {
    if (!ctx.resumed || !ctx.idempotencyKey) return [];
    const ids = Array.from({ length: MAX_EVENTS_PER_COMMAND }, (_, i) => commandEventId(ctx, spec.name, i));
    return (await this.store.readByIds(ctx.tenantId, ids)) as StoredEvent<E>[];
  }

  private async attempt<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    let inline = true;
    let replayed = false;
    const stored = await this.store.withTenant(ctx.tenantId, async (session) => {
      inline = session.inline;
      const earlier = await this.earlierCommit(ctx, spec);
      if (earlier.length > 0) {
        replayed = true;
        await spec.replayed?.(session.db, earlier, ctx);
        return earlier;
      }
      const at = await this.projections.checkpoint(session.db, ctx.tenantId);
      const state = await spec.load(session.db, ctx);
      const decided = spec.decide(state, ctx);
      if (decided.length === 0) return [];
      if (decided.length > MAX_EVENTS_PER_COMMAND) throw new Error(`${spec.name} decided ${decided.length} events; at most ${MAX_EVENTS_PER_COMMAND} fit one command`);
      const events: PendingEvent[] = decided.map((e, i) => ({
        ...e,
        // Derived from the idempotency key where there is one, so a repeated
        // append of the same request is recognised (the Postgres store returns
        // the stored events; EventStoreDB dedupes on ids) and a resumed request
        // can find what an earlier attempt committed.
        id: ctx.idempotencyKey ? commandEventId(ctx, spec.name, i) : this.ids.uuid(),
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
      return appended as StoredEvent<E>[];
    });
    // EventStoreDB mode: project right after the append so the answer reflects the write;
    // the catch-up projector covers a crash between the two.
    if (stored.length > 0 && !inline && !replayed) {
      await this.db.transaction((trx) => this.projections.apply(trx, stored)).catch(async (e) => {
        if (!(e instanceof ProjectionGap)) throw e;
        await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
      });
    }
    if (replayed && !inline) await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
    return stored;
  }
}
