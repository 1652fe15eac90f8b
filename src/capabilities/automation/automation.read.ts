import type { Db } from '../../commands/command.js';
import type { ListSpec } from '../../api/pagination/list.js';
import { anyObject, arrayOf, bool, constant, dateTime, integer, nullable, object, oneOfStrings, str, uuid, type Static } from '../../api/schemas.js';
import { isUuid } from '../../platform/ids.js';
import type { RowOf } from '../../projections/table-batch.js';
import { RuleActionSchema, type RuleAction } from './automation.actions.js';
import { MAX_CHAIN, MAX_RULES, type ArmedRule, type RuleView } from './automation.decider.js';
import type { AUTOMATION_RULES } from './automation.projection.js';

export type RuleRow = RowOf<typeof AUTOMATION_RULES> & { condition: Record<string, unknown> | null; actions: RuleAction[] };
interface LoopRow {
  rule_id: string;
  seq: number;
  chain: string[];
  reason: 'repeat' | 'depth';
  at: Date;
}

export async function findRule(db: Db, tenantId: string, id: string): Promise<RuleRow | undefined> {
  return isUuid(id) ? db('automation_rules').where({ tenant_id: tenantId, id: id.toLowerCase() }).first() : undefined;
}

/** Every rule of the workspace in its order. */
export const allRules = (db: Db, tenantId: string): Promise<RuleRow[]> =>
  db('automation_rules')
    .where({ tenant_id: tenantId })
    .orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }]);

/** How many rules the workspace has, and the position after the last (a deletion leaves a gap; a new rule goes last). */
export async function ruleCount(db: Db, tenantId: string): Promise<{ count: number; next: number }> {
  const r = await db('automation_rules')
    .where({ tenant_id: tenantId })
    .first(db.raw('count(*)::int AS n'), db.raw('coalesce(max(position) + 1, 0)::int AS next'));
  return { count: Number(r?.n ?? 0), next: Number(r?.next ?? 0) };
}

export const ruleView = (r: RuleRow | undefined): RuleView | null =>
  r ? { id: r.id, name: r.name, enabled: r.enabled, on: r.triggers, if: r.condition, then: r.actions } : null;

/** An enabled rule as the worker runs it. */
export type Armed = ArmedRule & { position: number; if: Record<string, unknown> | null; then: RuleAction[] };

/** The enabled rules of a workspace, in order. */
export async function armedRules(db: Db, tenantId: string, opts: { hold?: boolean } = {}): Promise<Armed[]> {
  const q = db('automation_rules')
    .where({ tenant_id: tenantId, enabled: true })
    .orderBy([{ column: 'position' }, { column: 'created_at' }, { column: 'id' }]);
  // `hold`: the rows stay as read until the caller's transaction ends (a change or deletion of the rule waits).
  const rows: RuleRow[] = await (opts.hold ? q.forShare() : q);
  return rows.map((r) => ({ id: r.id, on: r.triggers, enabledSeq: Number(r.enabled_seq), position: r.position, if: r.condition, then: r.actions }));
}

const loopSchema = nullable(
  object(
    {
      seq: integer({ minimum: 1, description: 'The event it would have run on.' }),
      chain: arrayOf(uuid, { description: 'The rules whose actions led to that event, then this one.' }),
      reason: oneOfStrings(['repeat', 'depth'], {
        description: `\`repeat\`: this rule was in the chain already; \`depth\`: the chain held ${MAX_CHAIN} rules already.`,
      }),
      at: dateTime,
    },
    { title: 'AutomationLoop' },
  ),
  { description: 'The last time the rule was stopped from running by the loop rules (null: never).' },
);

const definition = {
  name: str({ minLength: 1, maxLength: 255 }),
  enabled: bool,
  position: integer({ minimum: 0, description: 'Its place in the order rules run in on one event (from 0).' }),
  on: arrayOf(str(), { description: 'The event types that trigger it (conversation events).' }),
  if: nullable(anyObject({ description: 'The conversations filter language (as a view or a search).' }), {
    description: 'The conversations filter language; null matches every conversation.',
  }),
  then: arrayOf(RuleActionSchema, { description: 'Its actions, run in order.' }),
};

export const ruleSchema = object(
  { type: constant('automation_rule'), id: uuid, ...definition, loop: loopSchema, created_at: dateTime, updated_at: dateTime },
  { title: 'AutomationRule' },
);
export type Rule = Static<typeof ruleSchema>;

export const ruleWithSecretSchema = object(
  {
    type: constant('automation_rule'),
    id: uuid,
    ...definition,
    loop: loopSchema,
    created_at: dateTime,
    updated_at: dateTime,
    secret: str({ description: 'Signs its `call_url` requests (X-Service-Signature, as webhooks). Shown once, in this answer.' }),
  },
  { title: 'AutomationRuleWithSecret' },
);

export const ruleListSchema = object(
  { type: constant('list'), data: arrayOf(ruleSchema, { maxItems: MAX_RULES }) },
  { title: 'AutomationRuleList', description: 'Every rule of the workspace, in the order they run on one event.' },
);
export type RuleList = Static<typeof ruleListSchema>;
export const deletedRuleSchema = object({ type: constant('automation_rule'), id: uuid, deleted: constant(true) }, { title: 'DeletedAutomationRule' });

async function loopsOf(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, LoopRow>> {
  if (ids.length === 0) return new Map();
  const rows: LoopRow[] = await db('automation_rule_loops').where({ tenant_id: tenantId }).whereIn('rule_id', ids);
  return new Map(rows.map((r) => [r.rule_id, r]));
}

const renderOne = (r: RuleRow, loop: LoopRow | undefined): Rule => ({
  type: 'automation_rule',
  id: r.id,
  name: r.name,
  enabled: r.enabled,
  position: r.position,
  on: r.triggers,
  if: r.condition,
  then: r.actions,
  loop: loop ? { seq: Number(loop.seq), chain: loop.chain, reason: loop.reason, at: loop.at.toISOString() } : null,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export async function renderRules(db: Db, tenantId: string, rows: readonly RuleRow[]): Promise<Rule[]> {
  const loops = await loopsOf(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => renderOne(r, loops.get(r.id)));
}

export const renderRule = async (db: Db, r: RuleRow): Promise<Rule> => (await renderRules(db, r.tenant_id, [r]))[0]!;

/** The run log: what a rule's actions did, newest event first. */
export interface ActionRow {
  id: string;
  seq: number;
  idx: number;
  conversation_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed' | 'skipped';
  error_code: string | null;
  error_message: string | null;
  decided_at: Date;
  finished_at: Date | null;
}

export const actionsOf = (db: Db, tenantId: string, ruleId: string) =>
  db('automation_actions')
    .where({ tenant_id: tenantId, rule_id: ruleId })
    .select('id', 'seq', 'idx', 'conversation_id', 'event_type', 'status', 'error_code', 'error_message', 'decided_at', 'finished_at');

export const actionList: ListSpec = {
  itemType: 'automation_action',
  sorts: { seq: { column: 'seq', kind: 'number' } },
  defaultSort: 'seq',
  defaultOrder: 'desc',
  idColumn: 'id',
  idIsUuid: true,
};

export const actionRunSchema = object(
  {
    type: constant('automation_action'),
    id: uuid,
    seq: integer({ minimum: 1, description: 'The event that set the rule off.' }),
    event_type: str(),
    action_index: integer({ minimum: 0, description: "Which of the rule's actions (from 0)." }),
    conversation_id: uuid,
    status: oneOfStrings(['pending', 'succeeded', 'failed', 'skipped'], {
      description: '`skipped`: the action had nothing to change (closing a closed conversation); `failed`: refused (the error says why) or given up on.',
    }),
    error: nullable(object({ code: str(), message: str() }, { title: 'AutomationActionError' })),
    decided_at: dateTime,
    finished_at: nullable(dateTime),
  },
  { title: 'AutomationActionRun' },
);
export type ActionRun = Static<typeof actionRunSchema>;

export const renderActionRun = (r: ActionRow): ActionRun => ({
  type: 'automation_action',
  id: r.id,
  seq: Number(r.seq),
  event_type: r.event_type,
  action_index: r.idx,
  conversation_id: r.conversation_id,
  status: r.status,
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
  decided_at: r.decided_at.toISOString(),
  finished_at: r.finished_at ? r.finished_at.toISOString() : null,
});
