import type { Request } from 'express';
import type { CommandContext, CommandSpec, RequestClient } from '../commands/command.js';
import type { CommandShell } from '../commands/shell.js';
import type { NewEvent, StoredEvent } from '../eventstore/envelope.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { Answer, Call } from './routes.js';

/** The command context of an authenticated call: tenant, actor, time, idempotency key. */
export function commandContext(call: Call, clock: Clock): CommandContext {
  const p = call.principal;
  return {
    tenantId: p.tenantId,
    now: clock.now(),
    actor: p.via === 'api_key' ? { type: 'api_key', id: p.keyId!, member_id: p.memberId } : { type: 'member', id: p.memberId, member_id: p.memberId },
    idempotencyKey: call.req.get('idempotency-key'),
    resumed: call.write.resumed,
    requestId: call.ctx.requestId,
    client: requestClient(call.req),
  };
}

/** The longest user agent kept (it is stored, sealed, in the metadata of every write). */
const MAX_USER_AGENT = 512;

/**
 * Where a request came from, for the audit log: the address Express resolved (X-Forwarded-For is believed only
 * from TRUST_PROXY), an IPv4-mapped IPv6 address unwrapped, and the User-Agent (cut at 512 characters).
 */
export function requestClient(req: Request): RequestClient {
  const raw = (req.ip ?? '').toLowerCase();
  const ip = raw.startsWith('::ffff:') && raw.includes('.') ? raw.slice(7) : raw;
  const agent = req.get('user-agent');
  return { ip: ip || null, user_agent: agent ? agent.slice(0, MAX_USER_AGENT).replace(/[\uD800-\uDBFF]$/, '') : null };
}

/**
 * Renders a command's answer from what it wrote, inside the command's unit of
 * work (AnswerOf, src/commands/command.ts): it must read through `db`, since
 * nothing of the command is visible elsewhere yet.
 */
export type RenderAnswer<E extends NewEvent> = (events: StoredEvent<E>[], db: Db) => Promise<Answer>;

/**
 * Runs the call's command and answers it. The answer is rendered inside the
 * command's unit of work, from what it wrote; with an Idempotency-Key it is
 * also stored there as the key's answer, so the events and the answer commit
 * together (Postgres): a client retrying after a crash gets that answer
 * replayed. Where the store commits the append on its own (EventStoreDB), the
 * answer is stored right after it.
 */
export async function answerCommand<S, E extends NewEvent>(
  call: Call,
  deps: { shell: CommandShell; clock: Clock },
  spec: CommandSpec<S, E>,
  render: RenderAnswer<E>,
  /** the command's context, when the route built it to decide something first (its `now`) */
  ctx: CommandContext = commandContext(call, deps.clock),
): Promise<Answer> {
  const sink = call.write.answers;
  const { answer } = await deps.shell.execute(ctx, spec, {
    answer: async (events, db, keys) => {
      const rendered = await render(events, db);
      // Stored with the events; a store that failed was undone alone, and the idempotency layer stores it after the commit.
      return sink && (await sink.store(db, rendered, keys)) ? { ...rendered, storedWithCommand: true as const } : rendered;
    },
  });
  return answer;
}
