import { Type } from '@sinclair/typebox';
import { commandRoute } from '../../api/command-route.js';
import { ERROR } from '../../api/schemas.js';
import type { RouteDef } from '../../api/routes.js';
import type { Db } from '../../commands/command.js';
import type { CoreDeps } from '../capability.js';
import { setConversationAttributes } from './attribute-values.js';
import type { ConversationAnswers } from './answer-fields.js';

/** Values by name; null removes one. Whether a value fits its definition is the decider's (coded 400s per name). */
const ConversationUpdate = Type.Object(
  {
    custom_attributes: Type.Unsafe<Record<string, string | number | boolean | null>>({
      type: 'object',
      maxProperties: 100,
      propertyNames: { maxLength: 64 },
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] },
      description: "Values of the workspace's conversation attributes by name (null removes one); each must fit its definition's data type.",
    }),
  },
  { additionalProperties: false },
);

export const attributeValuesRoute = (deps: CoreDeps, answers: ConversationAnswers): RouteDef =>
  commandRoute(deps, {
    method: 'put',
    path: '/conversations/:id',
    permission: 'conversations:write',
    summary: "Set a conversation's custom attribute values (typed by their definitions; null removes one)",
    body: ConversationUpdate,
    // `contact_erased`: the conversation's contact was erased; it takes no new values.
    responses: { 410: ERROR },
    command: (call) => setConversationAttributes({ conversationId: call.params.id, change: call.body.custom_attributes }),
    answer: {
      status: 200,
      schema: answers.schema,
      read: (tx: Db, _events, call) => answers.one(tx, call.principal.tenantId, call.params.id),
    },
  }) as RouteDef;

/** Whether any conversation holds a value of the attribute (a definition's deletion asks; see AttributeReferences). */
export async function conversationHasAttribute(db: Db, tenantId: string, name: string): Promise<boolean> {
  return !!(await db('conversations').where({ tenant_id: tenantId }).whereRaw('jsonb_exists(custom_attributes, ?)', [name]).first('id'));
}
