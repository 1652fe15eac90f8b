// Automation rules: "when this happens to a conversation, and it looks like
// that, do these things", as Zendesk's triggers, Front's rules, Intercom's
// workflows and Chatwoot's automation_rules. A rule names the conversation
// events that set it off (`on`), a condition in the conversations filter
// language (`if`), and up to 10 actions (`then`): assign, move to a team,
// tag, untag, set priority, set a custom attribute, add a note, reply with a
// saved reply, close, snooze, and call a URL (a signed POST through the
// webhook outbox). Each action runs once per rule and event, in a worker,
// after the event's commit, as the command a teammate's request would be,
// acting as the rule; chains of rules stop at 3 and never repeat a rule.
import { defineModule } from '../capability.js';
import { defineErrors } from '../../platform/errors.js';
import { addTo } from '../additions.js';
import { deliveryTargets } from '../webhooks/index.js';
import { automationEvents } from './automation.events.js';
import { automationProjector } from './automation.projection.js';
import { automationRoutes } from './automation.routes.js';
import { automationWorker } from './automation.worker.js';
import { ruleSecrets } from './automation.commands.js';

export type { AutomationEvent } from './automation.events.js';
export { automationWorker } from './automation.worker.js';
export { MAX_CHAIN } from './automation.decider.js';

/** The error codes this capability raises (the catalogue: docs/errors.md, the OpenAPI document). */
const errors = defineErrors({
  limit_reached: { status: 422, when: "Creating a workspace's 101st automation rule." },
});

export const automationModule = defineModule({
  name: 'automation',
  errors,
  events: automationEvents,
  projectors: [automationProjector],
  tables: ['automation_rule_secrets', 'automation_cursors', 'automation_actions', 'automation_rule_loops'],
  routes: automationRoutes,
  adds: [
    // A rule's calls go through the webhook outbox, signed with the rule's own secret.
    addTo(deliveryTargets, { kind: 'rule', secrets: (sealer) => (db, tenantId, ruleId) => ruleSecrets(sealer).current(db, tenantId, ruleId) }),
  ],
  workers: (deps) => {
    const { decider, runner } = automationWorker(deps);
    return [decider, runner];
  },
});
