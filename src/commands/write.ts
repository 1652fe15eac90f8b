// What happens to a command inside its tenant's unit of work, alone or in a
// group, as a CommandResult from one step to the next: found (an earlier commit
// of the same request) or decided (loaded and decided) or refused; then
// written (ids stamped, personal fields sealed, the writes beside the log, the
// append and, inline, the projection in the same statement), with its answer
// rendered from what it wrote. The shell (shell.ts) and group commit
// (group-commit.ts) both go through here; neither writes anything itself.
import type { NewEvent, PendingEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore, type TenantSession } from '../eventstore/store.port.js';
import type { Forgettable } from '../eventstore/forgettable.js';
import { AppError } from '../platform/errors.js';
import { deterministicUuid, type Ids } from '../platform/ids.js';
import type { ProjectionEngine } from '../projections/engine.js';
import type { AnswerOf, CommandContext, CommandResult, CommandSpec, Db, MetadataHook } from './command.js';

/** No command appends more events than this (a replay looks for at most this many). */
export const MAX_EVENTS_PER_COMMAND = 256;

/** Event ids of a command sent with an Idempotency-Key: the same request always appends the same ids. */
export const commandEventId = (ctx: CommandContext, command: string, index: number): string =>
  deterministicUuid(ctx.tenantId, ctx.actor.id, ctx.idempotencyKey ?? '', command, String(index));

/** A command's result before anything is written: what an earlier attempt committed, new events, or a refusal. */
export type Decision<E extends NewEvent> = Extract<CommandResult<E>, { kind: 'found' | 'decided' | 'refused' }>;

/** A command's result once written: its events and its answer. */
export type Written<E extends NewEvent = NewEvent, A = unknown> = Extract<CommandResult<E, A>, { kind: 'written' }>;

/** A command as the writer takes it: its context, its spec and what renders its answer. */
export interface Command<S = unknown, E extends NewEvent = NewEvent, A = unknown> {
  ctx: CommandContext;
  spec: CommandSpec<S, E>;
  answer?: AnswerOf<E, A>;
}

/** A decision ready to write. */
export interface Decided extends Command {
  decided: NewEvent[];
}

/**
 * Whether what the store answered is this append. The store answers an append of ids it already holds with
 * the stored events (at their own seqs, of their own time): an earlier attempt's commit, not this one's.
 */
const isThisAppend = (appended: readonly StoredEvent[], sent: readonly PendingEvent[], at: number): boolean =>
  appended.length === sent.length && appended.every((e, i) => e.seq === at + 1 + i && e.id === sent[i]!.id && e.created_at === sent[i]!.created_at);

/**
 * Transactions a process holds open across an EventStoreDB append at once (see besideThenAppend). Each holds one
 * connection of the read-model pool while the append takes others (the id index): with no bound, as many
 * workspaces as the pool has connections writing beside the log at once would each wait for a connection none
 * gives back. Such commands (keys, invites, channels, webhooks) are rare; the pool has 20 by default.
 */
const BESIDE_ACROSS_APPEND = 4;

/** A command's event ids were already in the log (its request ran before): answer for that, write nothing. */
export class AlreadyAppended extends Error {}

/** The decider's events (its refusals thrown as they are); an error when there are more than one command may append. */
export function decideChecked<S, E extends NewEvent>(spec: CommandSpec<S, E>, state: S, ctx: CommandContext): E[] {
  const decided = spec.decide(state, ctx);
  if (decided.length > MAX_EVENTS_PER_COMMAND)
    throw new Error(`${spec.name} decided ${decided.length} events; at most ${MAX_EVENTS_PER_COMMAND} fit one command`);
  return decided;
}

/** Each command's result: its events and its answer. */
const written = (events: StoredEvent[][], answers: unknown[]): Written[] => events.map((e, i) => ({ kind: 'written', events: e, answer: answers[i] }));

/** `all` cut into consecutive slices as long as the lists of `like`: each command's share of a run's events. */
function slices<T>(like: readonly unknown[][], all: readonly T[]): T[][] {
  let from = 0;
  return like.map((list) => all.slice(from, (from += list.length)));
}

export class CommandWriter {
  /** transactions held across an append now, and who waits for one (BESIDE_ACROSS_APPEND) */
  private acrossAppend = 0;
  private readonly waitingToAppend: (() => void)[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly projections: ProjectionEngine,
    private readonly ids: Ids,
    private readonly forgettable: Forgettable,
    private readonly metadata?: MetadataHook,
  ) {}

  /** The events an earlier attempt of this request committed, if it did (a resumed request only). */
  async earlierCommit<E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<unknown, E>): Promise<StoredEvent<E>[]> {
    if (!ctx.resumed || !ctx.idempotencyKey) return [];
    const ids = Array.from({ length: MAX_EVENTS_PER_COMMAND }, (_, i) => commandEventId(ctx, spec.name, i));
    return (await this.store.readByIds(ctx.tenantId, ids)) as StoredEvent<E>[];
  }

  /** Reads and decides; writes nothing. A refusal (the decider's, or the load's: a typed error) is a result, not thrown. */
  async decideIn<S, E extends NewEvent>(db: Db, { ctx, spec }: Command<S, E>): Promise<Decision<E>> {
    const earlier = await this.earlierCommit(ctx, spec);
    if (earlier.length > 0) return { kind: 'found', events: earlier };
    try {
      return { kind: 'decided', events: decideChecked(spec, await spec.load(db, ctx), ctx) };
    } catch (e) {
      if (e instanceof AppError) return { kind: 'refused', refusal: e };
      throw e;
    }
  }

  /**
   * Writes what was found or decided: for an earlier commit, what a replay owes (the read models first brought
   * to it); else the decided events (see writeDecided). Either way with the answer rendered from them.
   */
  async writeIn<S, E extends NewEvent, A>(
    session: TenantSession,
    command: Command<S, E, A>,
    decision: Extract<Decision<E>, { kind: 'found' | 'decided' }>,
    at: number,
    newKeys: Map<string, Buffer>,
  ): Promise<Written<E, A>> {
    if (decision.kind === 'found') {
      await session.projected(decision.events);
      await command.spec.replayed?.(session.db, decision.events, command.ctx);
      return { kind: 'written', events: decision.events, answer: await this.answer(session, command, decision.events, newKeys) };
    }
    const [written] = await this.writeDecided(session, [{ ...(command as unknown as Command), decided: decision.events }], at, newKeys);
    return written as Written<E, A>;
  }

  /**
   * Writes what commands decided, in order: beside the log, their events
   * (expecting `at`, the seqs following on from one command to the next), and
   * the read models (inline, in the append's statement; else right after it);
   * then renders each command's answer from its events.
   */
  async writeDecided(session: TenantSession, items: Decided[], at: number, newKeys: Map<string, Buffer>): Promise<Written[]> {
    const perCommand = items.map((item) => this.stamp(item));
    const events = perCommand.flat();
    if (events.length === 0) {
      const none = items.map((): StoredEvent[] => []);
      return written(none, await this.answerAll(session, items, none, newKeys));
    }
    const tenantId = items[0]!.ctx.tenantId;
    // Personal fields are sealed with their subject's data key before anything is written (forgettable.ts):
    // the log only ever holds the sealed form; the read models, folded below, get the plaintext.
    // Not inline (EventStoreDB): the new keys are written now, and a subject whose key another decision stored
    // first is sealed with that key (Forgettable.sealBeside), so the events open whichever append wins.
    const sealed = session.inline
      ? await this.forgettable.seal(session.db, tenantId, events, newKeys)
      : { events: await this.forgettable.sealBeside(session.db, tenantId, events, newKeys), keyWrites: [] };
    await this.withMetadata(session.db, tenantId, items, perCommand, sealed.events, newKeys);
    if (!session.inline) {
      const appended = await this.besideThenAppend(session, items, sealed.events, at);
      if (!isThisAppend(appended, sealed.events, at)) throw new AlreadyAppended();
      const stored = await this.forgettable.open(session.db, appended);
      await session.projected(stored);
      const storedPer = slices(perCommand, stored);
      return written(storedPer, await this.answerAll(session, items, storedPer, newKeys));
    }
    for (const { ctx, spec, decided } of items) await spec.beside?.(session.db, decided, ctx);
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
    // The answers are rendered now, from the events as the append will store them: their reads go to the
    // connection right behind the append, which Postgres runs first (the statement order TenantSession.append
    // promises, store.port.ts), instead of a round trip later. If the append fails or is not what was sent, they
    // are rolled back with it.
    const answering = this.answerAll(session, items, slices(perCommand, provisional), newKeys);
    const [append, answered] = await Promise.allSettled([appending, answering]);
    if (append.status === 'rejected') throw append.reason;
    // A re-append of ids the store holds: the writes beside them must not stand. Roll back and answer for the earlier commit.
    if (!isThisAppend(append.value, events, at)) throw new AlreadyAppended();
    if (answered.status === 'rejected') throw answered.reason;
    const stored = append.value.map((a, i) => (sealed.events[i] !== events[i] ? { ...a, payload: events[i]!.payload, sealed_payload: a.payload } : a));
    // The answers were rendered from the provisional events; the results carry the events as stored.
    return written(slices(perCommand, stored), answered.value);
  }

  /**
   * Not inline (EventStoreDB): the writes beside the log go in a Postgres transaction held open across the
   * append, committed once the append stood (or may have: a timeout, a lost answer) and rolled back when it
   * certainly did not (lost its race for the head, WrongExpectedSeq, or was refused, a 4xx). Committed before
   * the append, as they were, they outlived a decision that lost its race and was made again: the retry wrote
   * them a second time (an invite's token: a duplicate key, answered 500; a secret rotated twice). The price: a
   * process that dies between the append's answer and the COMMIT leaves the events without those rows (a key
   * without its secret, never shown: the answer had not gone out). The data keys are not among them: written
   * before (Forgettable.sealBeside), whichever decision wins opens.
   */
  private async besideThenAppend(session: TenantSession, items: Decided[], events: PendingEvent[], at: number): Promise<StoredEvent[]> {
    if (!items.some((item) => item.spec.beside)) return session.append(events, at);
    while (this.acrossAppend >= BESIDE_ACROSS_APPEND) await new Promise<void>((resolve) => this.waitingToAppend.push(resolve));
    this.acrossAppend++;
    try {
      let unsure: { error: unknown } | null = null;
      const appended = await session.db.transaction(async (trx) => {
        for (const { ctx, spec, decided } of items) await spec.beside?.(trx, decided, ctx);
        try {
          return await session.append(events, at);
        } catch (e) {
          if (e instanceof WrongExpectedSeq || (e instanceof AppError && e.status < 500)) throw e;
          unsure = { error: e };
          return [];
        }
      });
      if (unsure) throw (unsure as { error: unknown }).error;
      return appended;
    } finally {
      this.acrossAppend--;
      this.waitingToAppend.shift()?.();
    }
  }

  /**
   * A command's events as they will be appended: ids derived from the
   * Idempotency-Key where there is one (a repeated append of the same request
   * is recognised, and a resumed request finds what an earlier attempt
   * committed), the command's time, and who asked.
   */
  private stamp({ ctx, spec, decided }: Decided): PendingEvent[] {
    return decided.map((e, i) => ({
      ...e,
      id: ctx.idempotencyKey ? commandEventId(ctx, spec.name, i) : this.ids.uuid(),
      created_at: ctx.now.toISOString(),
      metadata: {
        actor: ctx.actor,
        ...(ctx.idempotencyKey ? { idempotency_key: ctx.idempotencyKey } : {}),
        ...(ctx.requestId ? { request_id: ctx.requestId } : {}),
      },
    }));
  }

  /**
   * Merges what the metadata hook adds for each command (the audit log: its client, sealed) into the metadata of
   * its events as they will be appended (`sealedEvents`, in the order of `perCommand`). After `seal`, so that a
   * subject whose key this transaction creates (a new contact) seals with it.
   */
  private async withMetadata(
    db: Db,
    tenantId: string,
    items: Decided[],
    perCommand: PendingEvent[][],
    sealedEvents: PendingEvent[],
    newKeys: ReadonlyMap<string, Buffer>,
  ): Promise<void> {
    const hook = this.metadata;
    if (!hook || !items.some((item) => hook.applies(item.ctx))) return;
    const added = await hook.add(
      db,
      tenantId,
      items.map((item, i) => ({ ctx: item.ctx, events: perCommand[i]! })),
      newKeys,
    );
    let at = 0;
    perCommand.forEach((own, i) => {
      const fields = added[i];
      for (let j = 0; j < own.length; j++, at++)
        if (fields) sealedEvents[at]!.metadata = { ...sealedEvents[at]!.metadata, ...fields } as PendingEvent['metadata'];
    });
  }

  /** A command's answer, rendered in its unit of work from its events (AnswerOf); undefined when it asked for none. */
  private answer<E extends NewEvent, A>(
    session: TenantSession,
    command: Command<unknown, E, A>,
    events: StoredEvent<E>[],
    newKeys: ReadonlyMap<string, Buffer>,
  ): Promise<A> {
    return command.answer ? command.answer(events, session.db, newKeys) : Promise.resolve(undefined as A);
  }

  /** Commands' answers rendered together: their statements go to the connection at once. The first failure, once all are done. */
  private async answerAll(session: TenantSession, items: Decided[], events: StoredEvent[][], newKeys: ReadonlyMap<string, Buffer>): Promise<unknown[]> {
    const answered = await Promise.allSettled(items.map((item, i) => this.answer(session, item, events[i]!, newKeys)));
    const failed = answered.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return answered.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  }
}
