import type { EventMetadata, NewEvent, StoredEvent } from '../eventstore/envelope.js';
import type { AppError } from '../platform/errors.js';
import type { Db } from '../platform/db/database.js';

/** Who asks, when, and under which idempotency key; resolved before a decision runs. */
export interface CommandContext {
  tenantId: string;
  now: Date;
  actor: NonNullable<EventMetadata['actor']>;
  idempotencyKey?: string;
  /**
   * The request took over an idempotency reservation whose lease ran out: an
   * earlier attempt may have committed this command and died before it could
   * store its answer. The shell then looks for that commit before deciding.
   */
  resumed?: boolean;
  requestId?: string;
  /**
   * Where the request came from (plaintext): the shell seals it into its events'
   * metadata (`client`) under the data key of whose data it is (the audit log's
   * MetadataHook), for the audit log. Commands of workers and the CLI have none.
   */
  client?: RequestClient;
}

/**
 * Renders a command's answer from the events it committed, inside its unit of
 * work: in the Postgres store, in its transaction once its events are written
 * and the read models projected (so it commits with them or not at all); in
 * EventStoreDB's, once the append stood and the read models were folded. Read
 * through `db`: nothing of the command is visible elsewhere yet. `keys`: the
 * data keys the unit of work created (not yet visible elsewhere either). Run
 * again if the unit of work is tried again; the answer of the one that
 * committed is what `execute` returns. A request with an Idempotency-Key
 * stores its answer here too (src/api/command-context.ts).
 */
export type AnswerOf<E extends NewEvent, A> = (events: StoredEvent<E>[], db: Db, keys: ReadonlyMap<string, Buffer>) => Promise<A>;

/** What `CommandShell.execute` returns: the events the command committed and the answer rendered from them (undefined without one). */
export interface Executed<E extends NewEvent = NewEvent, A = undefined> {
  events: StoredEvent<E>[];
  answer: A;
}

/**
 * What a command comes to, one step after another (write.ts, group-commit.ts): found (an earlier attempt of the
 * request committed it) or decided, in its transaction; then written, with its answer; or refused by its
 * decider (a coded 4xx), which writes nothing.
 */
export type CommandResult<E extends NewEvent = NewEvent, A = unknown> =
  | { kind: 'found'; events: StoredEvent<E>[] }
  | { kind: 'decided'; events: E[] }
  | { kind: 'written'; events: StoredEvent<E>[]; answer: A }
  | { kind: 'refused'; refusal: AppError };

/** The caller's address and user agent, as a request presented them (personal data: sealed before they are stored). */
export interface RequestClient {
  ip: string | null;
  user_agent: string | null;
}

/**
 * What a capability adds to the metadata of the events a transaction's commands
 * append (the audit log: each command's client, sealed under the data key of the
 * subject it is personal data of). Handed to the shell by the composition root;
 * the shell knows no field of it, and merges what `add` gives into each
 * command's events.
 */
export interface MetadataHook {
  /** whether the command has anything to add (none: `add` is not called for the transaction) */
  applies(ctx: CommandContext): boolean;
  /**
   * The metadata fields for each command (one per command, null for none), after the events are sealed, so
   * that a subject whose key this transaction creates seals with it; `known`: the data keys it created.
   */
  add(
    db: Db,
    tenantId: string,
    commands: readonly { ctx: CommandContext; events: readonly NewEvent[] }[],
    known: ReadonlyMap<string, Buffer>,
  ): Promise<(Record<string, unknown> | null)[]>;
}

export type { Db } from '../platform/db/database.js';

/**
 * A command as the shell runs it, built by a capability's `*.commands.ts`
 * from plain inputs. `load` reads the state the decision needs (from read
 * models, through the session's db, so in the Postgres store it is the state at
 * exactly the seq the append will expect). `decide` is pure: same state and
 * command, same events; it throws typed errors to refuse.
 */
export interface CommandSpec<S, E extends NewEvent = NewEvent> {
  name: string;
  load(db: Db, ctx: CommandContext): Promise<S>;
  decide(state: S, ctx: CommandContext): E[];
  /**
   * Lets a group commit load this command beside its neighbours (all loads of a
   * run at once, one append for the run) instead of after their writes. Names,
   * once loaded, every key of what the decision read: `conversation:<id>`,
   * `contact:<id>`, `contact:email:<lower-cased>`... The promise: a command's
   * load reads nothing that a keyed command writes except under keys both name,
   * or under the aggregates of its events (`<aggregate_type>:<aggregate_id>`).
   * The shell accepts a loaded decision only while no earlier command of the run
   * touched one of its keys; else it writes the run and loads the command again.
   * `null`: cannot tell; the command is loaded after every earlier write and the
   * run ends with it. Without `keys`, a command always runs after every earlier
   * write (the safe default; declare keys only on hot, narrow commands).
   */
  keys?(state: S, ctx: CommandContext): string[] | null;
  /**
   * Writes that live beside the log rather than in it (secret hashes, sealed
   * secrets, password hashes), so no event ever carries them. In the Postgres
   * store they commit atomically with the events.
   */
  beside?(db: Db, events: E[], ctx: CommandContext): Promise<void>;
  /**
   * Writes owed when a resumed request finds its command already committed
   * (see CommandContext.resumed): e.g. a secret shown once is re-keyed, because
   * the first attempt's answer, which carried it, never reached anyone.
   */
  replayed?(db: Db, events: StoredEvent<E>[], ctx: CommandContext): Promise<void>;
}
