// The one place where commands meet I/O: a command runs in its tenant's
// transaction (load, decide, write), and is tried again when the log moved
// under it or when an earlier attempt of the same request turns out to have
// committed it. Deciders never touch the database. What happens inside the
// transaction is write.ts; sharing transactions between a workspace's
// concurrent commands is group-commit.ts (Postgres), queueing them where the
// store takes no lock is tenant-queue.ts (EventStoreDB).
import type { Knex } from 'knex';
import type { NewEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore, type ReadModels } from '../eventstore/store.port.js';
import type { Forgettable } from '../eventstore/forgettable.js';
import { AppError, Conflict } from '../platform/errors.js';
import type { TenantScope } from '../platform/db/tenant-scope.js';
import type { Ids } from '../platform/ids.js';
import { ProjectionGap, type ProjectionEngine } from '../projections/engine.js';
import type { AnswerOf, CommandContext, CommandSpec, Executed, MetadataHook } from './command.js';
import { GroupCommit } from './group-commit.js';
import { TenantQueue } from './tenant-queue.js';
import { AlreadyAppended, CommandWriter, type Command, type Written } from './write.js';

export { commandEventId, MAX_EVENTS_PER_COMMAND } from './write.js';

const MAX_ATTEMPTS = 5;
/**
 * EventStoreDB: attempts of a command that loses the race for its workspace's head to other processes. Each
 * process queues a workspace's commands, so a loser faces one process's queue at a time; it catches up and
 * decides again while that process goes on, so five could run out while a busy neighbour drains its queue.
 */
const MAX_ATTEMPTS_UNLOCKED = 30;

export type CommittedListener = (tenantId: string, events: StoredEvent[]) => void;
/** Told when a command is refused (its decider's coded 4xx): the command's name and the refusal. */
export type RefusedListener = (command: string, refusal: AppError) => void;

export class CommandShell {
  private readonly committed: CommittedListener[] = [];
  private readonly refused: RefusedListener[] = [];
  private readonly writer: CommandWriter;
  /** null: every command in a transaction of its own (group commit off, or EventStoreDB) */
  private readonly groups: GroupCommit | null;
  /** EventStoreDB only (the store takes no lock): a workspace's commands of this process, one after another */
  private readonly queue: TenantQueue | null;
  /** the read models as a unit of work keeps them current (store.port.ts) */
  private readonly readModels: ReadModels;

  constructor(
    private readonly store: EventStore,
    private readonly db: Knex,
    private readonly projections: ProjectionEngine,
    ids: Ids,
    private readonly forgettable: Forgettable,
    /** every command runs as its tenant, behind row-level security, whoever calls (a request, a worker, the CLI) */
    private readonly scope: TenantScope,
    /** metadata: what a capability adds to the metadata of each command's events (the audit log: the sealed client) */
    opts: { groupCommit?: boolean; metadata?: MetadataHook } = {},
  ) {
    this.writer = new CommandWriter(store, projections, ids, forgettable, opts.metadata);
    this.readModels = {
      checkpointQuery: projections.checkpointQuery,
      checkpoint: (db, tenantId) => projections.checkpoint(db, tenantId),
      project: (tenantId, events) =>
        db
          .transaction((trx) => projections.apply(trx, events))
          .catch(async (e) => {
            if (!(e instanceof ProjectionGap)) throw e;
            await projections.catchUpTenant(db, store, tenantId);
          }),
    };
    this.groups =
      opts.groupCommit && store.kind === 'postgres'
        ? new GroupCommit(store, this.readModels, forgettable, scope, this.writer, (command) => this.executeAlone(command))
        : null;
    this.queue = store.kind === 'eventstoredb' ? new TenantQueue() : null;
  }

  /**
   * Called after a command's events are committed and projected, before its
   * answer is sent: caches of read models (principals, channels) drop what the
   * events changed, so the caller's next request sees its own write.
   */
  onCommitted(listener: CommittedListener): void {
    this.committed.push(listener);
  }

  /** Called when a command is refused with a coded 4xx (metrics count refusals by command and code). */
  onRefused(listener: RefusedListener): void {
    this.refused.push(listener);
  }

  /**
   * Runs a command and returns the events it committed, with the answer `opts.answer` rendered from them in the
   * command's unit of work (AnswerOf). Answers are built from these events (their ids), never from ids the caller
   * minted: on a resumed request they are the events the earlier, crashed attempt committed. It runs in its
   * tenant's scope (row-level security), entered here for the caller (it throws when the caller is in another
   * tenant's scope); a group's drain enters it itself, so a group never takes its role from whichever request
   * started it. A refusal (a coded 4xx) is thrown.
   */
  async execute<S, E extends NewEvent, A = undefined>(
    ctx: CommandContext,
    spec: CommandSpec<S, E>,
    opts: { answer?: AnswerOf<E, A> } = {},
  ): Promise<Executed<E, A>> {
    const command: Command<S, E, A> = { ctx, spec, ...(opts.answer ? { answer: opts.answer } : {}) };
    let written: Written<E, A>;
    try {
      written = await this.scope.run(ctx.tenantId, () =>
        this.groups ? this.groups.enqueue(command) : this.queue ? this.queue.run(ctx.tenantId, () => this.executeAlone(command)) : this.executeAlone(command),
      );
    } catch (e) {
      if (e instanceof AppError && e.status < 500) for (const l of this.refused) l(spec.name, e);
      throw e;
    }
    if (written.events.length > 0) for (const l of this.committed) l(ctx.tenantId, written.events);
    return { events: written.events, answer: written.answer };
  }

  /** How many commands of the tenant wait for the next group (observability and tests). */
  pending(tenantId: string): number {
    return this.groups?.pending(tenantId) ?? 0;
  }

  /**
   * One command in a unit of work of its own, tried again when its events were
   * already in the log (an earlier attempt of the request: answer for that one)
   * or when the log moved under it (decide again on the new state).
   */
  private async executeAlone<S, E extends NewEvent, A>(command: Command<S, E, A>): Promise<Written<E, A>> {
    const attempts = this.queue ? MAX_ATTEMPTS_UNLOCKED : MAX_ATTEMPTS;
    let ctx = command.ctx;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return await this.attempt({ ...command, ctx });
      } catch (e) {
        if (e instanceof AlreadyAppended) {
          ctx = { ...ctx, resumed: true };
          continue;
        }
        if (!(e instanceof WrongExpectedSeq)) throw e;
        // Someone appended between our read and our append (EventStoreDB mode),
        // or the read models lag the log: catch them up and decide again. That
        // someone may be another attempt of this very request (one whose lease
        // ran out while it still ran): before deciding again, look for its commit,
        // as a resumed request does. Never rest on the store to notice the same
        // ids appended again (EventStoreDB itself would store them twice).
        if (ctx.idempotencyKey) ctx = { ...ctx, resumed: true };
        await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
      }
    }
    throw new Conflict('concurrent_modification', 'The workspace changed while the request was processed; retry it.', { 'Retry-After': '1' });
  }

  /** One try: in the tenant's unit of work, find or decide, then write and answer; a refusal ends it (nothing written). */
  private async attempt<S, E extends NewEvent, A>(command: Command<S, E, A>): Promise<Written<E, A>> {
    const newKeys = new Map<string, Buffer>();
    const written = await this.store.withTenant(
      command.ctx.tenantId,
      async (session) => {
        const decision = await this.writer.decideIn(session.db, command);
        if (decision.kind === 'refused') throw decision.refusal;
        return this.writer.writeIn(session, command, decision, session.at, newKeys);
      },
      this.readModels,
    );
    this.forgettable.remember(newKeys);
    return written;
  }
}
