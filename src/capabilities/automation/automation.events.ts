import { defineEvent, payload, Text, Type, Uuid, type EventOf } from '../../eventstore/catalogue.js';

// A rule is the workspace's own configuration, not anyone's personal data:
// nothing here is sealed (a note's or a URL's text is the team lead's). What a
// rule does to a conversation is that conversation's own events, with
// `{type: 'rule', id}` as their actor.

const Definition = {
  name: Text(),
  enabled: Type.Boolean(),
  on: Type.Array(Text(), { description: 'The event types that trigger it.' }),
  if: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The conversations filter language; null: every conversation.' }),
  then: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'The actions, in order, each as the request named it.' }),
};

export const AutomationRuleCreated = defineEvent({
  type: 'automation_rule.created',
  aggregate_type: 'automation_rule',
  description:
    'An automation rule was created, last in the order (`position`). It applies to the events committed after this one; its signing secret (for `call_url`) is kept beside the log, never in an event.',
  payload: payload({ id: Uuid(), ...Definition, position: Type.Integer({ minimum: 0 }) }),
});

export const AutomationRuleUpdated = defineEvent({
  type: 'automation_rule.updated',
  aggregate_type: 'automation_rule',
  description:
    'A rule changed; only changed fields are in the payload. Enabling it again makes it apply to the events committed after this one (not to those in between).',
  payload: payload({
    id: Uuid(),
    name: Type.Optional(Definition.name),
    enabled: Type.Optional(Definition.enabled),
    on: Type.Optional(Definition.on),
    if: Type.Optional(Definition.if),
    then: Type.Optional(Definition.then),
  }),
});

export const AutomationRulesReordered = defineEvent({
  type: 'automation_rule.reordered',
  aggregate_type: 'automation_rule',
  description:
    "The rules' order (in which they run on one event): every rule's id, first to last. The aggregate is the workspace's rule set (its id: the tenant's).",
  payload: payload({ ids: Type.Array(Uuid()) }),
});

export const AutomationRuleDeleted = defineEvent({
  type: 'automation_rule.deleted',
  aggregate_type: 'automation_rule',
  description: 'A rule was deleted: its actions not yet run are dropped, and its calls not yet delivered with them.',
  payload: payload({ id: Uuid() }),
});

export const automationEvents = [AutomationRuleCreated, AutomationRuleUpdated, AutomationRulesReordered, AutomationRuleDeleted] as const;
export type AutomationEvent = EventOf<(typeof automationEvents)[number]>;
