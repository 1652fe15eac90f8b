import { Type, type Static } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { getRoute, listRoute } from '../../api/resource-routes.js';
import { route, type Call, type RouteDef } from '../../api/routes.js';
import { arrayOf, bool, constant, object, str, uuid } from '../../api/schemas.js';
import type { Db } from '../../commands/command.js';
import { BadRequest, NotFound } from '../../platform/errors.js';
import type { CoreDeps } from '../capability.js';
import { conversationMatches, conversationQuerySchema, findConversation } from '../conversations/index.js';
import { deliveryLogRoutes } from '../webhooks/index.js';
import { describeAction, MAX_ACTIONS, RuleActionSchema, type RuleAction } from './automation.actions.js';
import { createRule, deleteRule, reorderRules, updateRule } from './automation.commands.js';
import { CONVERSATION_AGGREGATES, MAX_RULES } from './automation.decider.js';
import {
  actionList,
  actionRunSchema,
  actionsOf,
  allRules,
  deletedRuleSchema,
  findRule,
  renderActionRun,
  renderRule,
  renderRules,
  ruleListSchema,
  ruleSchema,
  ruleWithSecretSchema,
  type ActionRow,
  type RuleList,
} from './automation.read.js';

const definition = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  enabled: Type.Boolean(),
  on: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20, uniqueItems: true }),
  // checked by the filter language (400 invalid_query naming its path under `if`)
  if: Type.Union([Type.Unsafe<Record<string, unknown>>(conversationQuerySchema), Type.Null()]),
  then: Type.Array(RuleActionSchema, { minItems: 1, maxItems: MAX_ACTIONS }),
};
const NewRule = Type.Object({ ...definition, enabled: Type.Optional(definition.enabled), if: Type.Optional(definition.if) }, { additionalProperties: false });
const RuleChanges = Type.Partial(Type.Object(definition), { additionalProperties: false, minProperties: 1 });
const Reorder = Type.Object(
  { ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: MAX_RULES, description: 'Every rule of the workspace, first to last.' }) },
  { additionalProperties: false },
);
const TestOn = Type.Object({ conversation_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

const testSchema = object(
  {
    type: constant('automation_rule_test'),
    rule_id: uuid,
    conversation_id: uuid,
    enabled: bool,
    matches: bool,
    on: arrayOf(str(), { description: 'The event types that would set it off (the dry run sets nothing off: it asks only about the conversation).' }),
    actions: arrayOf(object({ action: RuleActionSchema, description: str() }, { title: 'AutomationTestAction' }), {
      description: 'What it would do, in order; empty when the conversation does not match.',
    }),
  },
  {
    title: 'AutomationRuleTest',
    description: "Whether the rule's `if` matches the conversation as it is now, and what its actions would do. Nothing changes.",
  },
);

export function automationRoutes(deps: CoreDeps): RouteDef[] {
  const { db, sealer, urlPolicy: policy, catalogue } = deps;
  // A rule looks at a conversation: it may be set off by the events of conversations only.
  const triggers = new Set(
    catalogue
      .all()
      .filter((d) => CONVERSATION_AGGREGATES.has(d.aggregate_type))
      .map((d) => d.type),
  );
  /** Every `call_url` must be a URL webhooks may call (the SSRF policy), checked before the command. */
  const urlsAllowed = async (then: readonly RuleAction[] | undefined) => {
    for (const [i, a] of (then ?? []).entries()) if (a.call_url !== undefined) await policy.requireAllowed(a.call_url, `then[${i}].call_url`);
  };
  const ruleIn = async (tx: Db, call: Call, id: string) => renderRule(tx, (await findRule(tx, call.principal.tenantId, id))!);
  const ruleOr404 = async (tenantId: string, id: string) => {
    const r = await findRule(db, tenantId, id);
    if (!r) throw new NotFound('automation rule');
    return r;
  };

  return [
    route({
      method: 'get',
      path: '/automation_rules',
      permission: 'settings:read',
      summary: 'List automation rules, in the order they run (all of them, at most 100; unpaginated)',
      responses: { 200: ruleListSchema },
      async handle({ principal }) {
        const rows = await allRules(db, principal.tenantId);
        return { status: 200, body: { type: 'list', data: await renderRules(db, principal.tenantId, rows) } satisfies RuleList };
      },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/automation_rules',
      permission: 'settings:write',
      summary: 'Create an automation rule (last in the order); the answer carries its signing secret, once',
      body: NewRule,
      before: ({ body }) => urlsAllowed(body.then),
      command: ({ body, write }) => {
        const { spec, secret } = createRule(
          { id: write.ids.uuid(), name: body.name, enabled: body.enabled ?? true, on: body.on, if: body.if ?? null, then: body.then, triggers },
          sealer,
        );
        return { spec, extra: { secret } };
      },
      answer: { status: 201, schema: ruleWithSecretSchema, read: (tx, [created], call) => ruleIn(tx, call, created!.aggregate_id) },
    }),

    commandRoute(deps, {
      method: 'post',
      path: '/automation_rules/reorder',
      permission: 'settings:write',
      summary: 'Set the order rules run in on one event (every rule, first to last)',
      body: Reorder,
      command: ({ body }) => reorderRules(body.ids),
      answer: {
        status: 200,
        schema: ruleListSchema,
        read: async (tx, _events, { principal }) => ({
          type: 'list' as const,
          data: await renderRules(tx, principal.tenantId, await allRules(tx, principal.tenantId)),
        }),
      },
    }),

    getRoute({
      path: '/automation_rules/:id',
      permission: 'settings:read',
      summary: 'Get an automation rule',
      resource: ruleSchema,
      what: 'automation rule',
      find: async ({ principal, params }) => {
        const r = await findRule(db, principal.tenantId, params.id);
        return r ? renderRule(db, r) : undefined;
      },
      render: (r) => r,
    }),

    commandRoute(deps, {
      method: 'put',
      path: '/automation_rules/:id',
      permission: 'settings:write',
      summary: 'Change an automation rule (the fields sent); enabling it again applies it to what happens from then on',
      body: RuleChanges,
      before: ({ body }) => urlsAllowed(body.then),
      command: ({ params, body }) => updateRule({ id: params.id.toLowerCase(), ...body, triggers }),
      answer: { status: 200, schema: ruleSchema, read: (tx, _events, call) => ruleIn(tx, call, call.params.id) },
    }),

    commandRoute(deps, {
      method: 'delete',
      path: '/automation_rules/:id',
      permission: 'settings:write',
      summary: 'Delete an automation rule (its actions not yet run, and its calls not yet delivered, go with it)',
      command: ({ params }) => deleteRule(params.id.toLowerCase(), sealer),
      answer: {
        status: 200,
        schema: deletedRuleSchema,
        read: async (_tx, [deleted]) => ({ type: 'automation_rule' as const, id: deleted!.aggregate_id, deleted: true as const }),
      },
    }),

    route<Static<typeof TestOn>, unknown, '/automation_rules/:id/test'>({
      method: 'post',
      path: '/automation_rules/:id/test',
      permission: 'settings:read',
      summary: "Dry run: whether the rule's `if` matches a conversation now, and what it would do (changes nothing)",
      responses: { 200: testSchema },
      body: TestOn,
      async handle({ principal, params, body }) {
        const rule = await ruleOr404(principal.tenantId, params.id);
        const conversation = await findConversation(db, principal.tenantId, body.conversation_id);
        if (!conversation) throw new BadRequest('unknown_conversation', 'conversation_id names no conversation of this workspace.', 'conversation_id');
        const matches = rule.condition === null ? true : ((await conversationMatches(db, principal.tenantId, conversation.id, [rule.condition]))[0] ?? false);
        return {
          status: 200,
          body: {
            type: 'automation_rule_test' as const,
            rule_id: rule.id,
            conversation_id: conversation.id,
            enabled: rule.enabled,
            matches,
            on: rule.triggers,
            actions: matches ? rule.actions.map((a) => ({ action: a, description: describeAction(a) })) : [],
          },
        };
      },
    }),

    listRoute<ActionRow, Record<string, never>, '/automation_rules/:id/actions'>({
      path: '/automation_rules/:id/actions',
      permission: 'settings:read',
      summary: "A rule's run log: each action it decided on, newest event first, with its outcome",
      item: actionRunSchema,
      spec: actionList,
      before: ({ principal, params }: Call<unknown, unknown, '/automation_rules/:id/actions'>) =>
        ruleOr404(principal.tenantId, params.id).then(() => undefined),
      query: ({ principal, params }) => actionsOf(db, principal.tenantId, params.id.toLowerCase()),
      render: renderActionRun,
    }),

    // A rule's calls, as a webhook's deliveries: their records, states and attempts.
    ...deliveryLogRoutes(deps, {
      base: '/automation_rules',
      kind: 'rule',
      what: 'automation rule',
      mustExist: ruleOr404,
      // To the rule's call_url as it is now (the one it called, if it calls none any more).
      republishTo: async (tenantId, id, source) => (await ruleOr404(tenantId, id)).actions.find((a) => a.call_url !== undefined)?.call_url ?? source.url,
    }),
  ];
}
