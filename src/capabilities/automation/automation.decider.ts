// Pure rule decisions. Configuration: at most 100 rules a workspace, each with
// 1 to 10 actions, triggered by conversation events only (an `if` is the
// conversations filter language, so what it looks at is a conversation), an
// update recording only what changes, a reorder naming every rule once.
// Triggering: which rules an event sets off, and where a chain of rules stops.
import { BadRequest, NotFound, Unprocessable } from '../../platform/errors.js';
import { checkConversationQuery } from '../conversations/index.js';
import { MAX_ACTIONS, type RuleAction } from './automation.actions.js';
import type { AutomationEvent } from './automation.events.js';

export const MAX_RULES = 100;
/** The aggregates whose id is a conversation's: their events may set a rule off (its `if` looks at that conversation). */
export const CONVERSATION_AGGREGATES: ReadonlySet<string> = new Set(['conversation', 'conversation_sla']);
/**
 * How many rules one chain may hold: an event a rule caused may set off other rules, whose events may set off
 * others, up to this many rules in a row; never the same rule twice in one chain.
 */
export const MAX_CHAIN = 3;

export interface RuleDefinition {
  name: string;
  enabled: boolean;
  on: string[];
  if: Record<string, unknown> | null;
  then: RuleAction[];
}

export interface RuleView extends RuleDefinition {
  id: string;
}

/** `triggers`: the event types a rule may name (every type whose aggregate is a conversation). */
function check(d: Partial<RuleDefinition>, triggers: ReadonlySet<string>): void {
  for (const [i, t] of (d.on ?? []).entries())
    if (!triggers.has(t)) throw new BadRequest('invalid_field', `on[${i}]: "${t}" is not an event type of a conversation.`, `on[${i}]`);
  if (d.if) checkConversationQuery(d.if, 'if');
  if (d.then && d.then.length > MAX_ACTIONS) throw new BadRequest('invalid_field', `A rule has at most ${MAX_ACTIONS} actions.`, 'then');
  // One call per rule and event: a call's delivery is keyed by its rule and its event, as a webhook's by its endpoint.
  const calls = (d.then ?? []).flatMap((a, i) => (a.call_url !== undefined ? [i] : []));
  if (calls.length > 1) throw new BadRequest('invalid_field', 'A rule calls at most one URL.', `then[${calls[1]}].call_url`);
}

export function decideCreateRule(cmd: RuleDefinition & { id: string; triggers: ReadonlySet<string> }, s: { count: number; next: number }): AutomationEvent[] {
  check(cmd, cmd.triggers);
  if (s.count >= MAX_RULES) throw new Unprocessable('limit_reached', `A workspace holds at most ${MAX_RULES} automation rules; delete one first.`);
  const { id, name, enabled, on, then } = cmd;
  return [
    {
      type: 'automation_rule.created',
      aggregate_type: 'automation_rule',
      aggregate_id: id,
      payload: { id, name, enabled, on, if: cmd.if, then, position: s.next },
    },
  ];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function decideUpdateRule(cmd: Partial<RuleDefinition> & { id: string; triggers: ReadonlySet<string> }, rule: RuleView | null): AutomationEvent[] {
  if (!rule) throw new NotFound('automation rule');
  check(cmd, cmd.triggers);
  const changed: Partial<RuleDefinition> = {};
  for (const k of ['name', 'enabled', 'on', 'if', 'then'] as const)
    if (cmd[k] !== undefined && !same(cmd[k], rule[k])) (changed as Record<string, unknown>)[k] = cmd[k];
  return Object.keys(changed).length
    ? [{ type: 'automation_rule.updated', aggregate_type: 'automation_rule', aggregate_id: rule.id, payload: { id: rule.id, ...changed } }]
    : [];
}

export function decideDeleteRule(id: string, rule: RuleView | null): AutomationEvent[] {
  if (!rule) throw new NotFound('automation rule');
  return [{ type: 'automation_rule.deleted', aggregate_type: 'automation_rule', aggregate_id: id, payload: { id } }];
}

/** A new order: every rule of the workspace once (ids compared in lower case). Nothing when it is the order already. */
export function decideReorder(cmd: { tenantId: string; ids: string[] }, current: readonly string[]): AutomationEvent[] {
  const ids = cmd.ids.map((id) => id.toLowerCase());
  const known = new Set(current);
  const unknown = ids.findIndex((id) => !known.has(id));
  if (unknown >= 0) throw new BadRequest('invalid_field', `ids[${unknown}] names no automation rule of this workspace.`, `ids[${unknown}]`);
  if (new Set(ids).size !== ids.length || ids.length !== current.length)
    throw new BadRequest('invalid_field', `ids names every rule of the workspace exactly once (${current.length} of them).`, 'ids');
  if (same(ids, current)) return [];
  return [{ type: 'automation_rule.reordered', aggregate_type: 'automation_rule', aggregate_id: cmd.tenantId, payload: { ids } }];
}

/** A rule as triggering reads it. */
export interface ArmedRule {
  id: string;
  on: readonly string[];
  /** it applies to events after this seq (its creation, or its last enabling) */
  enabledSeq: number;
}

export interface Triggering<R extends ArmedRule> {
  /** the rules this event sets off, in order, each with the chain its actions carry (the rules before it, then itself) */
  fire: { rule: R; chain: string[] }[];
  /** rules the event would have set off but for the chain: the same rule again, or a chain already MAX_CHAIN long */
  stopped: { rule: R; chain: string[]; reason: 'repeat' | 'depth' }[];
}

/**
 * Which rules an event sets off. `chain`: the rules whose actions caused the event (its actor's), empty for an event
 * a person, a key, a channel or the service caused. Rules are in their order; their `if` is checked after this.
 */
export function decideTriggers<R extends ArmedRule>(event: { type: string; seq: number }, chain: readonly string[], rules: readonly R[]): Triggering<R> {
  const out: Triggering<R> = { fire: [], stopped: [] };
  for (const rule of rules) {
    if (!rule.on.includes(event.type) || event.seq <= rule.enabledSeq) continue;
    if (chain.includes(rule.id)) out.stopped.push({ rule, chain: [...chain, rule.id], reason: 'repeat' });
    else if (chain.length >= MAX_CHAIN) out.stopped.push({ rule, chain: [...chain, rule.id], reason: 'depth' });
    else out.fire.push({ rule, chain: [...chain, rule.id] });
  }
  return out;
}
