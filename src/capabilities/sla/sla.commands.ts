import type { CommandSpec } from '../../commands/command.js';
import { decideCreatePolicy, decideDeletePolicy, decideSla, decideUpdatePolicy, type Policy, type PolicyInput, type SlaState } from './sla.decider.js';
import type { SlaEvent, SlaPolicyEvent } from './sla.events.js';
import { countPolicies, findPolicy, policyOf, slaState } from './sla.read.js';

export const createPolicy = (id: string, input: PolicyInput): CommandSpec<number, SlaPolicyEvent> => ({
  name: 'CreateSlaPolicy',
  load: (db, ctx) => countPolicies(db, ctx.tenantId),
  decide: (count) => decideCreatePolicy(id, input, count),
});

export const updatePolicy = (id: string, input: PolicyInput): CommandSpec<Policy | null, SlaPolicyEvent> => ({
  name: 'UpdateSlaPolicy',
  load: async (db, ctx) => policyOf(await findPolicy(db, ctx.tenantId, id)),
  decide: (p) => decideUpdatePolicy(id, input, p),
});

export const deletePolicy = (id: string): CommandSpec<Policy | null, SlaPolicyEvent> => ({
  name: 'DeletePolicy',
  load: async (db, ctx) => policyOf(await findPolicy(db, ctx.tenantId, id)),
  decide: (p) => decideDeletePolicy(id, p),
});

/**
 * Brings a conversation's SLA up to date at `now`: applies, moves, settles. The SLA
 * worker runs it; the shell's per-workspace lock makes a second run (another
 * process, the same deadline) load the first one's result and emit nothing.
 */
export const evaluateSla = (conversationId: string, skipped?: (policyId: string, error: unknown) => void): CommandSpec<SlaState, SlaEvent> => ({
  name: 'EvaluateSla',
  load: (db, ctx) => slaState(db, ctx.tenantId, conversationId, skipped),
  decide: (s, ctx) => decideSla(s, ctx.now),
});
