import type { EventMetadata, NewEvent, StoredEvent } from '../eventstore/envelope.js';

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
  /**
   * Runs inside the command's transaction once its events are written and the
   * read models projected (the Postgres store; never with EventStoreDB, whose
   * append commits on its own): what must commit with the events or not at
   * all. A request with an Idempotency-Key renders and stores its answer here
   * (src/api/command-context.ts). Called again if the transaction is retried;
   * whatever it last did in a transaction that committed is what stands.
   * `keys`: the data keys this transaction created (not yet visible elsewhere).
   */
  settle?(db: Db, events: StoredEvent[], keys: ReadonlyMap<string, Buffer>): Promise<void>;
}

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
import type { Db } from '../platform/db/database.js';

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
