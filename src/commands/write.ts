// What happens to a command inside its tenant's transaction, alone or in a
// group: look for an earlier commit of the same request, load and decide, then
// write (ids stamped, personal fields sealed, the writes beside the log, the
// append and, inline, the projection in the same statement) and settle (the
// answer stored with the events). The shell (shell.ts) and group commit
// (group-commit.ts) both go through here; neither writes anything itself.
import type { NewEvent, PendingEvent, StoredEvent } from '../eventstore/envelope.js';
import { WrongExpectedSeq, type EventStore, type TenantSession } from '../eventstore/store.port.js';
import type { Forgettable } from '../eventstore/forgettable.js';
import { AppError } from '../platform/errors.js';
import { deterministicUuid, type Ids } from '../platform/ids.js';
import type { ProjectionEngine } from '../projections/engine.js';
import type { CommandContext, CommandSpec, Db, MetadataHook } from './command.js';

/** No command appends more events than this (a replay looks for at most this many). */
export const MAX_EVENTS_PER_COMMAND = 256;

/** Event ids of a command sent with an Idempotency-Key: the same request always appends the same ids. */
export const commandEventId = (ctx: CommandContext, command: string, index: number): string =>
  deterministicUuid(ctx.tenantId, ctx.actor.id, ctx.idempotencyKey ?? '', command, String(index));

/** What a command came to in its tenant's transaction, before anything is written: what an earlier attempt committed, or new events. */
export type Decision<E extends NewEvent> = { kind: 'found'; earlier: StoredEvent<E>[] } | { kind: 'decided'; events: E[] };

/** A decision ready to write. */
export interface Decided {
  ctx: CommandContext;
  spec: CommandSpec<unknown, NewEvent>;
  decided: NewEvent[];
}

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

  /** The read models' checkpoint: read with the lock where the store took one, else on its own. */
  async checkpointOf(session: TenantSession, tenantId: string): Promise<number> {
    return session.lockRead !== undefined ? (session.lockRead ?? 0) : this.projections.checkpoint(session.db, tenantId);
  }

  /** The events an earlier attempt of this request committed, if it did (a resumed request only). */
  async earlierCommit<E extends NewEvent>(ctx: CommandContext, spec: CommandSpec<unknown, E>): Promise<StoredEvent<E>[]> {
    if (!ctx.resumed || !ctx.idempotencyKey) return [];
    const ids = Array.from({ length: MAX_EVENTS_PER_COMMAND }, (_, i) => commandEventId(ctx, spec.name, i));
    return (await this.store.readByIds(ctx.tenantId, ids)) as StoredEvent<E>[];
  }

  /** Reads and decides; writes nothing. Refusals are thrown as typed errors. */
  async decideIn<S, E extends NewEvent>(db: Db, ctx: CommandContext, spec: CommandSpec<S, E>): Promise<Decision<E>> {
    const earlier = await this.earlierCommit(ctx, spec);
    if (earlier.length > 0) return { kind: 'found', earlier };
    return { kind: 'decided', events: decideChecked(spec, await spec.load(db, ctx), ctx) };
  }

  /** Writes what was decided: for an earlier commit, what a replay owes and the answer; else the decided events (see writeDecided). */
  async writeIn<S, E extends NewEvent>(
    session: TenantSession,
    ctx: CommandContext,
    spec: CommandSpec<S, E>,
    decision: Decision<E>,
    at: number,
    newKeys: Map<string, Buffer>,
  ): Promise<StoredEvent<E>[]> {
    if (decision.kind === 'found') {
      await spec.replayed?.(session.db, decision.earlier, ctx);
      await this.settle(session, ctx, decision.earlier, newKeys);
      return decision.earlier;
    }
    const [events] = await this.writeDecided(session, [{ ctx, spec: spec as CommandSpec<unknown, NewEvent>, decided: decision.events }], at, newKeys);
    return events as StoredEvent<E>[];
  }

  /**
   * Writes what commands decided, in order: beside the log, their events
   * (expecting `at`, the seqs following on from one command to the next), and,
   * inline, the read models; then settles each (CommandContext.settle). Answers
   * each command's events.
   */
  async writeDecided(session: TenantSession, items: Decided[], at: number, newKeys: Map<string, Buffer>): Promise<StoredEvent[][]> {
    const perCommand = items.map((item) => this.stamp(item));
    const events = perCommand.flat();
    if (events.length === 0) {
      await this.settleAll(
        session,
        items,
        items.map(() => []),
        newKeys,
      );
      return items.map(() => []);
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
    if (!session.inline) return slices(perCommand, await this.forgettable.open(session.db, await this.besideThenAppend(session, items, sealed.events, at)));
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
    // The settles start now, with the events as the append will store them: their reads (the answers) go to
    // the connection right behind the append, which Postgres runs first (the statement order TenantSession.append
    // promises, store.port.ts), instead of a round trip later. If the append fails or is not what was sent, they
    // are rolled back with it.
    const settling = this.settleAll(session, items, slices(perCommand, provisional), newKeys);
    const [append, settle] = await Promise.allSettled([appending, settling]);
    if (append.status === 'rejected') throw append.reason;
    const appended = append.value;
    // The store answers a re-append of ids it holds with the stored events instead of new ones; the
    // writes beside them must not stand then. Roll back and answer for the earlier commit.
    if (appended.length !== events.length || appended.some((e, i) => e.seq !== at + 1 + i || e.id !== events[i]!.id)) throw new AlreadyAppended();
    if (settle.status === 'rejected') throw settle.reason;
    const stored = appended.map((a, i) => (sealed.events[i] !== events[i] ? { ...a, payload: events[i]!.payload, sealed_payload: a.payload } : a));
    return slices(perCommand, stored);
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

  /**
   * A command's settle (CommandContext.settle), in its transaction after its
   * write. Only where the read models are projected in that transaction:
   * elsewhere nothing of the command could be read in it.
   */
  private async settle(session: TenantSession, ctx: CommandContext, events: StoredEvent[], newKeys: ReadonlyMap<string, Buffer>): Promise<void> {
    if (ctx.settle && session.inline) await ctx.settle(session.db, events, newKeys);
  }

  /** Settles commands together: their statements go to the connection at once. The first failure, once all are done. */
  private async settleAll(session: TenantSession, items: Decided[], events: StoredEvent[][], newKeys: ReadonlyMap<string, Buffer>): Promise<void> {
    const settled = await Promise.allSettled(items.map((item, i) => this.settle(session, item.ctx, events[i]!, newKeys)));
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  }
}
