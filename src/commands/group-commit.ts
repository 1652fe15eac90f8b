// Group commit (Postgres store): while a transaction of a workspace is in
// flight, its commands queue; the next transaction takes the whole queue and
// runs each command in turn (load, decide, append, project: each sees the ones
// before it), then commits once. The append lock is taken once and fsync paid
// once for all of them, so a busy workspace is not bound to one commit per lock
// hold. A command refused by its decider is answered with its refusal and the
// others go on; any other failure rolls the group back and every command in it
// runs again alone, except when the connection broke (the COMMIT's outcome is
// unknown: running them again could write them twice).
//
// Keyed runs: consecutive commands that declare their keys (CommandSpec.keys)
// are loaded together and written in one statement, as long as none touches
// what an earlier one of the run wrote.
import { AsyncResource } from 'node:async_hooks';
import type { NewEvent } from '../eventstore/envelope.js';
import type { EventStore, ReadModels, TenantSession } from '../eventstore/store.port.js';
import type { Forgettable } from '../eventstore/forgettable.js';
import { AppError } from '../platform/errors.js';
import type { TenantScope } from '../platform/db/tenant-scope.js';
import { isDatabaseUnavailable } from '../platform/db/unavailable.js';
import { decideChecked, type Command, type CommandWriter, type Written } from './write.js';

/** A group commit takes at most this many commands into one transaction. */
const MAX_GROUP = 64;

interface Queued extends Command {
  resolve(written: Written): void;
  reject(e: unknown): void;
}

/** What a command came to in a group (CommandResult): written, with its answer, or refused. */
type Outcome = Written | { kind: 'refused'; refusal: unknown };

/** Whether a queued command may be loaded beside others (see CommandSpec.keys): not a resumed request, nor one writing beside the log. */
const keyed = ({ ctx, spec }: Queued): boolean => spec.keys !== undefined && !ctx.resumed && spec.beside === undefined;

/** Runs one command in a transaction of its own (the shell's path): a group of one, and a group's fallback. */
export type RunAlone = <S, E extends NewEvent, A>(command: Command<S, E, A>) => Promise<Written<E, A>>;

export class GroupCommit {
  /** Per tenant, the commands waiting for the transaction after the one in flight (present while one is). */
  private readonly queues = new Map<string, Queued[]>();
  /**
   * The async context queues are drained in: the group commit's own, taken when
   * it was built (no request's), so a group never runs in the tenant scope of
   * whichever request happened to queue first; the drain enters its tenant's.
   */
  private readonly drainer = new AsyncResource('GroupCommit.drain');

  constructor(
    private readonly store: EventStore,
    private readonly readModels: ReadModels,
    private readonly forgettable: Forgettable,
    private readonly scope: TenantScope,
    private readonly writer: CommandWriter,
    private readonly alone: RunAlone,
  ) {}

  /** How many commands of the tenant wait for the next group (observability and tests). */
  pending(tenantId: string): number {
    return this.queues.get(tenantId)?.length ?? 0;
  }

  enqueue<S, E extends NewEvent, A>(command: Command<S, E, A>): Promise<Written<E, A>> {
    const tenantId = command.ctx.tenantId;
    return new Promise((resolve, reject) => {
      const item = { ...command, resolve, reject } as unknown as Queued;
      const queue = this.queues.get(tenantId);
      if (queue) {
        queue.push(item);
        return;
      }
      this.queues.set(tenantId, [item]);
      void this.drainer.runInAsyncScope(() => this.drain(tenantId));
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
      await this.alone(one!).then(one!.resolve, one!.reject);
      return;
    }
    let outcomes: Outcome[];
    const newKeys = new Map<string, Buffer>();
    try {
      outcomes = await this.store.withTenant(
        tenantId,
        async (session) => {
          let at = session.at;
          const out: Outcome[] = [];
          while (out.length < group.length) {
            const run = this.runFrom(group, out.length);
            const done = run.length > 1 ? await this.runKeyed(session, run, at, newKeys) : await this.runOne(session, run[0]!, at, newKeys);
            for (const o of done) {
              out.push(o);
              if (o.kind === 'written' && o.events.length > 0 && o.events[o.events.length - 1]!.seq > at) at = o.events[o.events.length - 1]!.seq;
            }
          }
          return out;
        },
        this.readModels,
      );
    } catch (e) {
      // The connection broke (the database went away, maybe during COMMIT): whether the group committed
      // is unknown, so running its commands again could write them twice. Each caller gets the error
      // (503: a retry with its Idempotency-Key finds what did commit).
      if (isDatabaseUnavailable(e)) {
        for (const { reject } of group) reject(e);
        return;
      }
      // Otherwise nothing of the group committed. Each command gets a transaction of its own, and its own outcome.
      for (const item of group) await this.alone(item).then(item.resolve, item.reject);
      return;
    }
    // Committed: the data keys it created may seal what follows (answers, later events) without a lookup.
    this.forgettable.remember(newKeys);
    outcomes.forEach((o, i) => (o.kind === 'written' ? group[i]!.resolve(o) : group[i]!.reject(o.refusal)));
  }

  /** The commands from `from` on that may be loaded together: consecutive ones declaring keys (at least one command). */
  private runFrom(group: Queued[], from: number): Queued[] {
    let to = from + 1;
    if (keyed(group[from]!)) while (to < group.length && keyed(group[to]!)) to++;
    return group.slice(from, to);
  }

  /** One command after every earlier write of the group: load, decide, write. */
  private async runOne(session: TenantSession, command: Queued, at: number, newKeys: Map<string, Buffer>): Promise<Outcome[]> {
    // Refused before anything of it was written: its answer, and the group goes on. Anything
    // else (a database error, thrown) has aborted the transaction: the group falls back.
    const decision = await this.writer.decideIn(session.db, command);
    return [decision.kind === 'refused' ? decision : await this.writer.writeIn(session, command, decision, at, newKeys)];
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
      run.map(async ({ ctx, spec }) => {
        const state = await spec.load(session.db, ctx);
        const keys = spec.keys!(state, ctx);
        try {
          return { keys, decided: decideChecked(spec, state, ctx) };
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          return { keys, refused: e };
        }
      }),
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
        out.push({ kind: 'refused', refusal: r.reason });
        continue;
      }
      const { keys } = r.value;
      if ('refused' in r.value) {
        out.push({ kind: 'refused', refusal: r.value.refused });
      } else {
        taken.push({ item: run[i]!, decided: r.value.decided, index: out.length });
        out.push({ kind: 'written', events: [], answer: undefined });
        for (const e of r.value.decided) touched.add(`${e.aggregate_type}:${e.aggregate_id}`);
      }
      // It may write what it read; and a command that cannot name its keys ends the run.
      if (keys === null) break;
      for (const k of keys) touched.add(k);
    }
    const written = await this.writer.writeDecided(
      session,
      taken.map(({ item, decided }) => ({ ctx: item.ctx, spec: item.spec, ...(item.answer ? { answer: item.answer } : {}), decided })),
      at,
      newKeys,
    );
    taken.forEach((t, i) => (out[t.index] = written[i]!));
    return out;
  }
}
