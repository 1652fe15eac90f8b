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
