// The one place where commands meet I/O: load state, decide, append with the
// expected seq, project, retry on conflict. Deciders never touch the database.
import { AsyncResource } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { NewEvent, PendingEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore, type TenantSession } from '../eventstore/store.port.js';
import { AppError, Conflict } from '../platform/errors.js';
import type { TenantScope } from '../platform/db/tenant-scope.js';
import { isDatabaseUnavailable } from '../platform/db/unavailable.js';
import { deterministicUuid, type Ids } from '../platform/ids.js';
import { ProjectionGap, type ProjectionEngine } from '../projections/engine.js';
import type { Forgettable } from '../eventstore/forgettable.js';
import type { CommandContext, CommandSpec, Db } from './command.js';

const MAX_ATTEMPTS = 5;
/** No command appends more events than this (a replay looks for at most this many). */
export const MAX_EVENTS_PER_COMMAND = 256;

export type CommittedListener = (tenantId: string, events: StoredEvent[]) => void;
/** Told when a command is refused (its decider's coded 4xx): the command's name and the refusal. */
export type RefusedListener = (command: string, refusal: AppError) => void;

/** Event ids of a command sent with an Idempotency-Key: the same request always appends the same ids. */
export const commandEventId = (ctx: CommandContext, command: string, index: number): string =>
  deterministicUuid(ctx.tenantId, ctx.actor.id, ctx.idempotencyKey ?? '', command, String(index));

interface Queued {
  ctx: CommandContext;
  spec: CommandSpec<unknown, NewEvent>;
  resolve(events: StoredEvent[]): void;
  reject(e: unknown): void;
  /**
   * Runs `fn` in the async context of the caller that queued the command: ids
   * minted while it decides and writes derive from its own request's
   * Idempotency-Key (withIdSeed), whoever drains the queue.
   */
  within<T>(fn: () => Promise<T>): Promise<T>;
}

/** What a command came to in its tenant's transaction, before anything is written. */
type Decision<E extends NewEvent> = { earlier: StoredEvent<E>[] } | { decided: E[] };

/** What a command came to in a group: its events, or its refusal. */
type Outcome = { events: StoredEvent[] } | { refused: unknown };

/** A decision ready to write, with the async context of the caller it belongs to. */
interface Decided {
  ctx: CommandContext;
  spec: CommandSpec<unknown, NewEvent>;
  decided: NewEvent[];
  within: Queued['within'];
}

/** Whether a queued command may be loaded beside others (see CommandSpec.keys): not a resumed request, nor one writing beside the log. */
const keyed = ({ ctx, spec }: Queued): boolean => spec.keys !== undefined && !ctx.resumed && spec.beside === undefined;

/** The decider's events (its refusals thrown as they are); an error when there are more than one command may append. */
function decideChecked<S, E extends NewEvent>(spec: CommandSpec<S, E>, state: S, ctx: CommandContext): E[] {
  const decided = spec.decide(state, ctx);
  if (decided.length > MAX_EVENTS_PER_COMMAND) throw new Error(`${spec.name} decided ${decided.length} events; at most ${MAX_EVENTS_PER_COMMAND} fit one command`);
  return decided;
}

/** `all` cut into consecutive slices as long as the lists of `like`: each command's share of a run's events. */
function slices<T>(like: readonly unknown[][], all: readonly T[]): T[][] {
  let from = 0;
  return like.map((list) => all.slice(from, (from += list.length)));
}

/** A command's event ids were already in the log (its request ran before): answer for that, write nothing. */
class AlreadyAppended extends Error {}

/** A group commit takes at most this many commands into one transaction. */
const MAX_GROUP = 64;

export class CommandShell {
  private readonly committed: CommittedListener[] = [];
  private readonly refused: RefusedListener[] = [];
  /** Per tenant, the commands waiting for the transaction after the one in flight (present while one is). */
  private readonly queues = new Map<string, Queued[]>();
  /**
   * The async context queues are drained in: the shell's own, taken when it
   * was built (no request's), so a group never runs in the tenant scope or id
   * seed of whichever request happened to queue first.
   */
  private readonly drainer = new AsyncResource('CommandShell.drain');

  constructor(
    private readonly store: EventStore,
    private readonly db: Knex,
    private readonly projections: ProjectionEngine,
    private readonly ids: Ids,
    private readonly forgettable: Forgettable,
    /** every command runs as its tenant, behind row-level security, whoever calls (a request, a worker, the CLI) */
    private readonly scope: TenantScope,
    private readonly opts: { groupCommit?: boolean } = {},
  ) {}

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
   * request they are the events the earlier, crashed attempt committed.
   *
   * Group commit (Postgres store): while a transaction of a workspace is in
   * flight, its commands queue; the next transaction takes the whole queue and
   * runs each command in turn (load, decide, append, project: each sees the
   * ones before it), then commits once. The append lock is taken once and
   * fsync paid once for all of them, so a busy workspace is no longer bound to
   * one commit per lock hold. A command refused by its decider is answered with
   * its refusal and the others go on; any failure after writing began rolls the
   * group back and every command in it runs again in a transaction of its own.
   *
   * A command runs in its tenant's scope (row-level security): entered here
   * for the caller (it throws when the caller is in another tenant's scope),
   * and by the drain for a group, so a group's transaction never takes its
   * role from the request that happened to start it.
   */
  async execute<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    const grouped = this.opts.groupCommit && this.store.kind === 'postgres';
    let stored: StoredEvent<E>[];
    try {
      stored = await this.scope.run(ctx.tenantId, () => (grouped ? this.enqueue(ctx, spec) : this.executeAlone(ctx, spec)));
    } catch (e) {
      if (e instanceof AppError && e.status < 500) for (const l of this.refused) l(spec.name, e);
      throw e;
    }
    if (stored.length > 0) for (const l of this.committed) l(ctx.tenantId, stored);
    return stored;
  }

  /** How many commands of the tenant wait for the next group (observability and tests). */
  pending(tenantId: string): number {
    return this.queues.get(tenantId)?.length ?? 0;
  }

  private enqueue<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    return new Promise((resolve, reject) => {
      const caller = new AsyncResource('CommandShell.command');
      const within: Queued['within'] = (fn) => caller.runInAsyncScope(fn);
      const item: Queued = { ctx, spec: spec as CommandSpec<unknown, NewEvent>, resolve: resolve as (e: StoredEvent[]) => void, reject, within };
      const queue = this.queues.get(ctx.tenantId);
      if (queue) {
        queue.push(item);
        return;
      }
      this.queues.set(ctx.tenantId, [item]);
      void this.drainer.runInAsyncScope(() => this.drain(ctx.tenantId));
    });
  }

  private async drain(tenantId: string): Promise<void> {
    const queue = this.queues.get(tenantId)!;
    try {
      // No await between the last check of the queue and its removal: a command queued meanwhile cannot be left
      // behind. (The removal must sit here, not in a `finally` after the awaited scope: the callers the last group
      // resolved resume before that `finally` would run, and a command one of them queued at once went into a
      // queue that was then dropped, never drained: its caller waited for ever.)
      await this.scope.run(tenantId, async () => {
        while (queue.length > 0) await this.runGroup(tenantId, queue.splice(0, MAX_GROUP));
        this.queues.delete(tenantId);
      });
    } finally {
      if (this.queues.get(tenantId) === queue) {
        this.queues.delete(tenantId);
        // Only after an unexpected failure: whatever is still queued is answered rather than stranded.
        for (const item of queue.splice(0)) item.reject(new Error('the command queue of the workspace failed; retry'));
      }
    }
  }

  private async runGroup(tenantId: string, group: Queued[]): Promise<void> {
    if (group.length === 1) {
      const [one] = group;
      await one!.within(() => this.executeAlone(one!.ctx, one!.spec)).then(one!.resolve, one!.reject);
      return;
    }
    let outcomes: Outcome[];
    const newKeys = new Map<string, Buffer>();
    try {
      outcomes = await this.store.withTenant(tenantId, async (session) => {
        let at = await this.checkpointOf(session, tenantId);
        const out: Outcome[] = [];
        while (out.length < group.length) {
          const run = this.runFrom(group, out.length);
          const done = run.length > 1 ? await this.runKeyed(session, run, at, newKeys) : await this.runOne(session, run[0]!, at, newKeys);
          for (const o of done) {
            out.push(o);
            if ('events' in o && o.events.length > 0 && o.events[o.events.length - 1]!.seq > at) at = o.events[o.events.length - 1]!.seq;
          }
        }
        return out;
      }, this.projections.checkpointQuery);
    } catch (e) {
      // The connection broke (the database went away, maybe during COMMIT): whether the group committed
      // is unknown, so running its commands again could write them twice. Each caller gets the error
      // (503: a retry with its Idempotency-Key finds what did commit).
      if (isDatabaseUnavailable(e)) {
        for (const { reject } of group) reject(e);
        return;
      }
      // Otherwise nothing of the group committed. Each command gets a transaction of its own, and its own outcome.
      for (const { ctx, spec, resolve, reject, within } of group) await within(() => this.executeAlone(ctx, spec)).then(resolve, reject);
      return;
    }
    // Committed: the data keys it created may seal what follows (answers, later events) without a lookup.
    this.forgettable.remember(newKeys);
    outcomes.forEach((o, i) => ('events' in o ? group[i]!.resolve(o.events) : group[i]!.reject(o.refused)));
  }

  /** The commands from `from` on that may be loaded together: consecutive ones declaring keys (at least one command). */
  private runFrom(group: Queued[], from: number): Queued[] {
    let to = from + 1;
    if (keyed(group[from]!)) while (to < group.length && keyed(group[to]!)) to++;
    return group.slice(from, to);
  }

  /** One command after every earlier write of the group: load, decide, write. */
  private async runOne(session: TenantSession, { ctx, spec, within }: Queued, at: number, newKeys: Map<string, Buffer>): Promise<Outcome[]> {
    let decision: Decision<NewEvent>;
    try {
      decision = await within(() => this.decideIn(session.db, ctx, spec));
    } catch (e) {
      // Refused before anything of it was written: its answer, and the group goes on. Anything
      // else (a database error) has aborted the transaction: the group falls back.
      if (!(e instanceof AppError)) throw e;
      return [{ refused: e }];
    }
    return [{ events: await within(() => this.writeIn(session, ctx, spec, decision, at, newKeys)) }];
  }

  /**
   * Keyed commands loaded together: their loads go to the connection at once and
   * run back to back (no turn of the event loop between them), all against the
   * state the group's earlier writes left. Decided in order; a command is taken
   * while no command taken before it touched one of its keys (see
   * CommandSpec.keys), and the taken ones are appended and projected in one
   * statement. The first one not taken is loaded again by the next run, after
   * that write; so the outcome is the one of running them one by one.
   */
  private async runKeyed(session: TenantSession, run: Queued[], at: number, newKeys: Map<string, Buffer>): Promise<Outcome[]> {
    const loaded = await Promise.allSettled(
      run.map(({ ctx, spec, within }) =>
        within(async () => {
          const state = await spec.load(session.db, ctx);
          const keys = spec.keys!(state, ctx);
          try {
            return { keys, decided: decideChecked(spec, state, ctx) };
          } catch (e) {
            if (!(e instanceof AppError)) throw e;
            return { keys, refused: e };
          }
        }),
      ),
    );
    // A failed statement aborted the transaction: the group falls back (after every load settled, so none is left on the connection).
    const failed = loaded.find((r) => r.status === 'rejected' && !(r.reason instanceof AppError));
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const out: Outcome[] = [];
    const taken: { item: Queued; decided: NewEvent[]; index: number }[] = [];
    const touched = new Set<string>();
    for (const [i, r] of loaded.entries()) {
      // The first command of a run loaded after every earlier write: its outcome stands whatever it read.
      if (i > 0 && (r.status === 'rejected' || r.value.keys === null || r.value.keys.some((k) => touched.has(k)))) break;
      if (r.status === 'rejected') {
        out.push({ refused: r.reason });
        continue;
      }
      const { keys } = r.value;
      if ('refused' in r.value) {
        out.push({ refused: r.value.refused });
      } else {
        taken.push({ item: run[i]!, decided: r.value.decided, index: out.length });
        out.push({ events: [] });
        for (const e of r.value.decided) touched.add(`${e.aggregate_type}:${e.aggregate_id}`);
      }
      // It may write what it read; and a command that cannot name its keys ends the run.
      if (keys === null) break;
      for (const k of keys) touched.add(k);
    }
    const written = await this.writeDecided(
      session,
      taken.map(({ item, decided }) => ({ ctx: item.ctx, spec: item.spec, decided, within: item.within })),
      at,
      newKeys,
    );
    taken.forEach((t, i) => (out[t.index] = { events: written[i]! }));
    return out;
  }

  /** The read models' checkpoint: read with the lock where the store took one, else on its own. */
  private async checkpointOf(session: TenantSession, tenantId: string): Promise<number> {
    return session.lockRead !== undefined ? (session.lockRead ?? 0) : this.projections.checkpoint(session.db, tenantId);
  }

  /** One command in a transaction of its own, retried when the log moved under it. */
  private async executeAlone<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
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

  /** The events an earlier attempt of this request committed, if it did. */
  private async earlierCommit<E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<unknown, E>): Promise<StoredEvent<E>[]> {
    if (!ctx.resumed || !ctx.idempotencyKey) return [];
    const ids = Array.from({ length: MAX_EVENTS_PER_COMMAND }, (_, i) => commandEventId(ctx, spec.name, i));
    return (await this.store.readByIds(ctx.tenantId, ids)) as StoredEvent<E>[];
  }

  /** Reads and decides; writes nothing. Refusals are thrown as typed errors. */
  private async decideIn<S, E extends NewEvent>(db: Db, ctx: CommandContext, spec: CommandSpec<S, E>): Promise<Decision<E>> {
    const earlier = await this.earlierCommit(ctx, spec);
    if (earlier.length > 0) return { earlier };
    return { decided: decideChecked(spec, await spec.load(db, ctx), ctx) };
  }

  /** Writes what was decided: the earlier commit's answer, or the decided events (see writeDecided). */
  private async writeIn<S, E extends NewEvent>(session: TenantSession, ctx: CommandContext, spec: CommandSpec<S, E>, decision: Decision<E>, at: number, newKeys: Map<string, Buffer>): Promise<StoredEvent<E>[]> {
    let events: StoredEvent<E>[];
    if ('earlier' in decision) {
      await spec.replayed?.(session.db, decision.earlier, ctx);
      events = decision.earlier;
      await this.settleIn(session, { ctx, within: (fn) => fn() }, events, newKeys);
    } else {
      events = (await this.writeDecided(session, [{ ctx, spec: spec as CommandSpec<unknown, NewEvent>, decided: decision.decided, within: (fn) => fn() }], at, newKeys))[0] as StoredEvent<E>[];
    }
    return events;
  }

  /**
   * A command's settle (CommandContext.settle), in its transaction after its
   * write, in its caller's async context. Only where the read models are
   * projected in that transaction: elsewhere nothing of the command could be read in it.
   */
  private async settleIn(session: TenantSession, { ctx, within }: Pick<Queued, 'ctx' | 'within'>, events: StoredEvent[], newKeys: ReadonlyMap<string, Buffer>): Promise<void> {
    if (ctx.settle && session.inline) await within(() => ctx.settle!(session.db, events, newKeys));
  }

  /**
   * Writes what commands decided, in order: beside the log, their events
   * (expecting `at`, the seqs following on from one command to the next), and,
   * inline, the read models; then settles each (CommandContext.settle). Answers
   * each command's events.
   */
  private async writeDecided(session: TenantSession, items: Decided[], at: number, newKeys: Map<string, Buffer>): Promise<StoredEvent[][]> {
    const perCommand: PendingEvent[][] = [];
    for (const { ctx, spec, decided, within } of items) {
      // Minted in the caller's async context: ids derive from its own request's Idempotency-Key.
      perCommand.push(
        await within(async () =>
          decided.map((e, i) => ({
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
          })),
        ),
      );
    }
    const events = perCommand.flat();
    if (events.length === 0) {
      await this.settleAll(session, items, items.map(() => []), newKeys);
      return items.map(() => []);
    }
    const tenantId = items[0]!.ctx.tenantId;
    // Personal fields are sealed with their subject's data key before anything is written (forgettable.ts):
    // the log only ever holds the sealed form; the read models, folded below, get the plaintext.
    const sealed = await this.forgettable.seal(session.db, tenantId, events, newKeys);
    for (const { ctx, spec, decided } of items) await spec.beside?.(session.db, decided, ctx);
    let stored: StoredEvent[];
    if (!session.inline) {
      for (const w of sealed.keyWrites) await session.db.raw(w.sql, w.bindings as Knex.RawBinding[]);
      stored = await this.forgettable.open(session.db, await session.append(sealed.events, at));
    } else {
      // Inline: the seqs are known under the lock (at+1…), so the read-model writes are folded now and
      // go to Postgres in the same statement as the append (and the new data keys): one round trip for all.
      const provisional = events.map((e, i) => ({
        ...e,
        tenant_id: tenantId,
        seq: at + 1 + i,
        position: '',
        ...(sealed.events[i] !== e ? { sealed_payload: sealed.events[i]!.payload } : {}),
      }));
      const appending = session.append(sealed.events, at, [...sealed.keyWrites, ...this.projections.statementsFor(tenantId, provisional, at)]);
      // The settles start now, with the events as the append will store them: their reads (the answers) go to
      // the connection right behind the append, which Postgres runs first, instead of a round trip later. If the
      // append fails or is not what was sent, they are rolled back with it.
      const settling = this.settleAll(session, items, slices(perCommand, provisional), newKeys);
      const [append, settle] = await Promise.allSettled([appending, settling]);
      if (append.status === 'rejected') throw append.reason;
      const appended = append.value;
      // The store answers a re-append of ids it holds with the stored events instead of new ones; the
      // writes beside them must not stand then. Roll back and answer for the earlier commit.
      if (appended.length !== events.length || appended.some((e, i) => e.seq !== at + 1 + i || e.id !== events[i]!.id)) throw new AlreadyAppended();
      if (settle.status === 'rejected') throw settle.reason;
      stored = appended.map((a, i) => (sealed.events[i] !== events[i] ? { ...a, payload: events[i]!.payload, sealed_payload: a.payload } : a));
    }
    return slices(perCommand, stored);
  }

  /** Settles commands (see settleIn) together: their statements go to the connection at once. The first failure, once all are done. */
  private async settleAll(session: TenantSession, items: Decided[], events: StoredEvent[][], newKeys: ReadonlyMap<string, Buffer>): Promise<void> {
    const settled = await Promise.allSettled(items.map((item, i) => this.settleIn(session, item, events[i]!, newKeys)));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }

  private async attempt<S, E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<S, E>): Promise<StoredEvent<E>[]> {
    let inline = true;
    let replayed = false;
    let at = 0;
    const newKeys = new Map<string, Buffer>();
    const stored = await this.store.withTenant(ctx.tenantId, async (session) => {
      inline = session.inline;
      at = await this.checkpointOf(session, ctx.tenantId);
      const decision = await this.decideIn(session.db, ctx, spec);
      replayed = 'earlier' in decision;
      return this.writeIn(session, ctx, spec, decision, at, newKeys);
    }, this.projections.checkpointQuery);
    this.forgettable.remember(newKeys);
    // Not inline (EventStoreDB), the store answers an append of ids it already holds with the
    // stored events: not ours (not at the seqs we expected, or not of this request's time), but
    // an earlier attempt's. Answer for that one as a resumed request does (inline, writeDecided
    // notices it before its transaction commits).
    if (!inline && !replayed && stored.length > 0 && (stored[0]!.seq !== at + 1 || stored[0]!.created_at !== ctx.now.toISOString())) throw new AlreadyAppended();
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
