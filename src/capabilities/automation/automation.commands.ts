import { randomBytes } from 'node:crypto';
import type { CommandSpec } from '../../commands/command.js';
import { sealedSecrets } from '../../commands/beside-secrets.js';
import type { Sealer } from '../../platform/crypto/seal.js';
import { decideCreateRule, decideDeleteRule, decideReorder, decideUpdateRule, type RuleDefinition, type RuleView } from './automation.decider.js';
import type { AutomationEvent } from './automation.events.js';
import { allRules, findRule, ruleCount, ruleView } from './automation.read.js';
import { forgetRule } from './automation.repo.js';

/** Rule signing secrets (for `call_url`): minted once, shown once, sealed beside the log with the tenant and rule as associated data. */
export const ruleSecrets = (sealer: Sealer) => sealedSecrets({ table: 'automation_rule_secrets', owner: 'rule_id', purpose: 'webhook' }, sealer);

export function createRule(input: RuleDefinition & { id: string; triggers: ReadonlySet<string> }, sealer: Sealer) {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const secrets = ruleSecrets(sealer);
  const spec: CommandSpec<{ count: number; next: number }, AutomationEvent> = {
    name: 'CreateAutomationRule',
    load: (db, ctx) => ruleCount(db, ctx.tenantId),
    decide: (s) => decideCreateRule(input, s),
    beside: (db, events, ctx) => secrets.store(db, ctx.tenantId, events[0]!.aggregate_id, secret, { created_at: ctx.now }),
    // The first attempt's secret was never shown (its answer was lost): this one replaces it.
    replayed: (db, events, ctx) => secrets.replace(db, ctx.tenantId, events[0]!.aggregate_id, secret),
  };
  return { spec, secret };
}

export const updateRule = (input: Partial<RuleDefinition> & { id: string; triggers: ReadonlySet<string> }): CommandSpec<RuleView | null, AutomationEvent> => ({
  name: 'UpdateAutomationRule',
  load: async (db, ctx) => ruleView(await findRule(db, ctx.tenantId, input.id)),
  decide: (rule) => decideUpdateRule(input, rule),
});

export const deleteRule = (id: string, sealer: Sealer): CommandSpec<RuleView | null, AutomationEvent> => ({
  name: 'DeleteAutomationRule',
  load: async (db, ctx) => ruleView(await findRule(db, ctx.tenantId, id)),
  decide: (rule) => decideDeleteRule(rule?.id ?? id, rule),
  async beside(db, events, ctx) {
    if (events.length === 0) return;
    const ruleId = events[0]!.aggregate_id;
    await ruleSecrets(sealer).remove(db, ctx.tenantId, ruleId);
    await forgetRule(db, ctx.tenantId, ruleId);
  },
});

export const reorderRules = (ids: string[]): CommandSpec<string[], AutomationEvent> => ({
  name: 'ReorderAutomationRules',
  load: async (db, ctx) => (await allRules(db, ctx.tenantId)).map((r) => r.id),
  decide: (current, ctx) => decideReorder({ tenantId: ctx.tenantId, ids }, current),
});
