import type { Knex } from 'knex';
import type { EventMetadata, NewEvent } from '../eventstore/envelope.js';

/** Who asks, when, and under which idempotency key; resolved before a decision runs. */
export interface CommandContext {
  tenantId: string;
  now: Date;
  actor: NonNullable<EventMetadata['actor']>;
  idempotencyKey?: string;
  requestId?: string;
}

/**
 * A command as the shell runs it. `load` reads the state the decision needs
 * (from read models, through the session's db, so in the Postgres store it is
 * the state at exactly the seq the append will expect). `decide` is pure: same
 * state and command, same events; it throws typed errors to refuse.
 */
export interface CommandSpec<S> {
  name: string;
  load(db: Knex | Knex.Transaction, ctx: CommandContext): Promise<S>;
  decide(state: S, ctx: CommandContext): NewEvent[];
  /**
   * Writes that live beside the log rather than in it (secret hashes, sealed
   * secrets, password hashes), so no event ever carries them. In the Postgres
   * store they commit atomically with the events.
   */
  beside?(db: Knex | Knex.Transaction, events: NewEvent[], ctx: CommandContext): Promise<void>;
}
