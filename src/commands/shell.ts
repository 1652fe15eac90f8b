// The one place where commands meet I/O: a command runs in its tenant's
// transaction (load, decide, write), and is tried again when the log moved
// under it or when an earlier attempt of the same request turns out to have
// committed it. Deciders never touch the database. What happens inside the
// transaction is write.ts; sharing transactions between a workspace's
// concurrent commands is group-commit.ts (Postgres), queueing them where the
// store takes no lock is tenant-queue.ts (EventStoreDB).
import type { Knex } from 'knex';
import type { NewEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore } from '../eventstore/store.port.js';
import type { Forgettable } from '../eventstore/forgettable.js';
import { AppError, Conflict } from '../platform/errors.js';
import type { TenantScope } from '../platform/db/tenant-scope.js';
import type { Ids } from '../platform/ids.js';
import { ProjectionGap, type ProjectionEngine } from '../projections/engine.js';
import type { CommandContext, CommandSpec, MetadataHook } from './command.js';
import { GroupCommit } from './group-commit.js';
import { TenantQueue } from './tenant-queue.js';
import { AlreadyAppended, CommandWriter } from './write.js';

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
    this.groups =
      opts.groupCommit && store.kind === 'postgres'
        ? new GroupCommit(store, projections, forgettable, scope, this.writer, (ctx, spec) => this.executeAlone(ctx, spec))
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
   * Runs a command and returns the events it committed. Answers are built from
   * these events (their ids), never from ids the caller minted: on a resumed
   * request they are the events the earlier, crashed attempt committed. It runs
   * in its tenant's scope (row-level security), entered here for the caller (it
   * throws when the caller is in another tenant's scope); a group's drain enters
   * it itself, so a group never takes its role from whichever request started it.
   */
  async execute<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    let stored: StoredEvent<E>[];
    try {
      stored = await this.scope.run(ctx.tenantId, () =>
        this.groups
          ? this.groups.enqueue(ctx, spec)
          : this.queue
            ? this.queue.run(ctx.tenantId, () => this.executeAlone(ctx, spec))
            : this.executeAlone(ctx, spec),
      );
    } catch (e) {
      if (e instanceof AppError && e.status < 500) for (const l of this.refused) l(spec.name, e);
      throw e;
    }
    if (stored.length > 0) for (const l of this.committed) l(ctx.tenantId, stored);
    return stored;
  }

  /** How many commands of the tenant wait for the next group (observability and tests). */
  pending(tenantId: string): number {
    return this.groups?.pending(tenantId) ?? 0;
  }

  /**
   * One command in a transaction of its own, tried again when its events were
   * already in the log (an earlier attempt of the request: answer for that one)
   * or when the log moved under it (decide again on the new state).
   */
  private async executeAlone<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    const attempts = this.queue ? MAX_ATTEMPTS_UNLOCKED : MAX_ATTEMPTS;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return await this.attempt(ctx, spec);
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

  private async attempt<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    let inline = true;
    let replayed = false;
    let at = 0;
    const newKeys = new Map<string, Buffer>();
    const stored = await this.store.withTenant(
      ctx.tenantId,
      async (session) => {
        inline = session.inline;
        at = await this.writer.checkpointOf(session, ctx.tenantId);
        const decision = await this.writer.decideIn(session.db, ctx, spec);
        replayed = decision.kind === 'found';
        return this.writer.writeIn(session, ctx, spec, decision, at, newKeys);
      },
      this.projections.checkpointQuery,
    );
    this.forgettable.remember(newKeys);
    // Not inline (EventStoreDB), the store answers an append of ids it already holds with the
    // stored events: not ours (not at the seqs we expected, or not of this request's time), but
    // an earlier attempt's. Answer for that one as a resumed request does (inline, writeDecided
    // notices it before its transaction commits).
    if (!inline && !replayed && stored.length > 0 && (stored[0]!.seq !== at + 1 || stored[0]!.created_at !== ctx.now.toISOString()))
      throw new AlreadyAppended();
    // EventStoreDB mode: project right after the append so the answer reflects the write;
    // the catch-up projector covers a crash between the two.
    if (stored.length > 0 && !inline && !replayed) {
      await this.db
        .transaction((trx) => this.projections.apply(trx, stored))
        .catch(async (e) => {
          if (!(e instanceof ProjectionGap)) throw e;
          await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
        });
    }
    if (replayed && !inline) await this.projections.catchUpTenant(this.db, this.store, ctx.tenantId);
    return stored;
  }
}
