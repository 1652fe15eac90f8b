import type { CommandContext } from '../commands/command.js';
import type { Clock } from '../platform/clock.js';
import type { Call } from './routes.js';

/** The command context of an authenticated call: tenant, actor, time, idempotency key. */
export function commandContext(call: Call, clock: Clock): CommandContext {
  const p = call.principal;
  return {
    tenantId: p.tenantId,
    now: clock.now(),
    actor: p.via === 'api_key' ? { type: 'api_key', id: p.keyId!, member_id: p.memberId } : { type: 'member', id: p.memberId, member_id: p.memberId },
    idempotencyKey: call.req.get('idempotency-key'),
    resumed: call.ctx.resumed,
    requestId: call.ctx.requestId,
  };
}
