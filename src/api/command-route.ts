// The one shape of a write route, beside listRoute and getRoute: the route
// names its body (a TypeBox schema: the handler's types come from it), the
// command the call becomes, and its answer: status, schema, and how to read it
// from the committed events. The answer is read inside the command's
// transaction (where the store projects inline: the Postgres store), through
// the handle it is given; with an Idempotency-Key it is stored there too, so the
// events and the answer commit together (answerCommand, command-context.ts).
import type { Static, TSchema } from '@sinclair/typebox';
import type { CommandSpec } from '../commands/command.js';
import type { CommandShell } from '../commands/shell.js';
import type { NewEvent, StoredEvent } from '../eventstore/envelope.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { answerCommand, commandContext } from './command-context.js';
import { route, type Call, type Permission, type Responses, type RouteDef } from './routes.js';
import type { Schema } from './validation.js';

/** The body type a schema declares (none: no body). */
type BodyOf<TB> = TB extends TSchema ? Static<TB> : Record<string, never>;

/** What `read` must return: the type the answer's schema declares (no body: nothing to read). */
type AnswerOf<TA, K extends string> = TA extends TSchema ? Omit<Static<TA>, K> : TA extends null ? null | undefined : unknown;

/** A command with what its answer adds that only the call knows (a secret shown once, an invite token). */
export interface Prepared<S, E extends NewEvent, K extends string = never> {
  spec: CommandSpec<S, E>;
  /** fields added to the answer's body, after what `read` returns (which is typed without them) */
  extra?: { [k in K]: unknown };
}

export interface CommandRouteDef<
  TB extends TSchema | undefined,
  S,
  E extends NewEvent,
  TA extends Schema | null = Schema | null,
  K extends string = never,
  P extends string = string,
> {
  method: 'post' | 'put' | 'patch' | 'delete';
  path: P;
  permission: Permission;
  summary?: string;
  /** minting and rotating keys need a fresh session (spec 5.3.6) */
  freshSession?: boolean;
  body?: TB;
  /** the body is a file, not JSON (see RouteDef.file) */
  file?: RouteDef['file'];
  /** a JSON body larger than BODY_LIMIT (see RouteDef.bodyLimit) */
  bodyLimit?: string;
  /** the query's JSON Schema (see RouteDef.query) */
  query?: Schema;
  /** error statuses peculiar to the route (see RouteDef.responses) */
  responses?: Responses;
  /** checks that must run before the command and outside its transaction (a URL policy that resolves host names) */
  before?(call: Call<BodyOf<TB>, any, P>): Promise<void>;
  /**
   * the command the call becomes; ids it names come from call.write.ids (derived from the Idempotency-Key), and
   * `now` is the command's own time (its context's, which its events carry): a rule that compares with the present
   * (a snooze must end in the future) decides at that instant
   */
  command(call: Call<BodyOf<TB>, any, P>, now: Date): CommandSpec<S, E> | Prepared<S, E, K>;
  /** what follows the commit and must not be part of it (waking a worker): given the events that committed */
  after?(call: Call<BodyOf<TB>, any, P>, events: StoredEvent<E>[]): Promise<void>;
  answer: {
    status: number;
    /** the answer body's schema (null: no body) */
    schema: TA;
    /** the body from the committed events, read through `db` (the command's transaction, or the pool after it); typed by `schema` */
    read(db: Db, events: StoredEvent<E>[], call: Call<BodyOf<TB>, any, P>): Promise<AnswerOf<TA, K>>;
  };
}

export function commandRoute<
  TB extends TSchema | undefined,
  S,
  E extends NewEvent,
  TA extends Schema | null,
  K extends string = never,
  P extends string = string,
>(deps: { shell: CommandShell; clock: Clock; db: Db }, def: CommandRouteDef<TB, S, E, TA, K, P>): RouteDef<BodyOf<TB>> {
  return route<BodyOf<TB>, any, P>({
    method: def.method,
    path: def.path,
    permission: def.permission,
    summary: def.summary,
    freshSession: def.freshSession,
    body: def.body as Schema | undefined,
    file: def.file,
    bodyLimit: def.bodyLimit,
    query: def.query,
    responses: { [def.answer.status]: def.answer.schema, ...def.responses },
    async handle(call) {
      await def.before?.(call);
      const ctx = commandContext(call, deps.clock);
      const made = def.command(call, ctx.now);
      const { spec, extra } = 'spec' in made ? made : { spec: made, extra: undefined };
      // The events the answer was last read from: those of the transaction that committed (see answerCommand).
      let committed: StoredEvent<E>[] = [];
      const answer = await answerCommand(
        call,
        deps,
        spec,
        async (events, tx) => {
          committed = events;
          const body = await def.answer.read(tx ?? deps.db, events, call);
          return { status: def.answer.status, body: extra && body && typeof body === 'object' ? { ...body, ...extra } : body };
        },
        ctx,
      );
      await def.after?.(call, committed);
      return answer;
    },
  });
}
