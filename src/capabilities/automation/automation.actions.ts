// What a rule may do, each as the command a teammate's own request would be
// (conversations', tags' and saved replies' own specs): the same rules, the
// same events, the same refusals. One action is an object with exactly one key.
import { Type, type Static } from '@sinclair/typebox';
import type { CommandSpec } from '../../commands/command.js';
import type { NewEvent } from '../../eventstore/envelope.js';
import { conversationActionFields, conversationActionSpec, replyToConversation, setConversationAttributes, type Author } from '../conversations/index.js';

export const NOTE_MAX_LENGTH = 20_000;
export const MAX_ACTIONS = 10;

export const RuleActionSchema = Type.Object(
  {
    ...conversationActionFields,
    set_attribute: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 64 }),
          value: Type.Unsafe<string | number | boolean | null>({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }] }),
        },
        { additionalProperties: false, description: 'Set one custom attribute of the conversation (null removes it), typed by its definition.' },
      ),
    ),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: NOTE_MAX_LENGTH, description: 'Add an internal note with this text.' })),
    reply_with: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          "Reply with this saved reply, rendered for the conversation's contact: sent to an `api` channel's bridge as a teammate's reply is; an e-mail channel sends no automatic reply.",
      }),
    ),
    snooze_for_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 31_536_000, description: 'Snooze for this long.' })),
    call_url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          "POST the event and the conversation to this URL, signed with the rule's secret as webhooks are (X-Service-Signature), through the webhook retries and the rule's delivery log.",
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, title: 'AutomationAction', description: 'Exactly one action.' },
);
export type RuleAction = Static<typeof RuleActionSchema>;

/** What an action needs besides itself: the part it may add, its author, and a saved reply's text as rendered. */
export interface ActionInput {
  conversationId: string;
  partId: string;
  author: Author;
  now: Date;
  /** `reply_with`'s body, rendered for the conversation (null: the saved reply is gone) */
  replyBody?: string | null;
}

/** The command that applies a conversation action (every kind but `call_url`, which is a delivery, not a change). */
export function actionSpec(action: RuleAction, c: ActionInput): CommandSpec<any, NewEvent> {
  const part = { conversationId: c.conversationId, partId: c.partId, attachments: [], author: c.author };
  if (action.set_attribute !== undefined)
    return setConversationAttributes({ conversationId: c.conversationId, change: { [action.set_attribute.name]: action.set_attribute.value } });
  if (action.note !== undefined) return replyToConversation({ ...part, messageType: 'note', body: action.note });
  if (action.reply_with !== undefined) return replyToConversation({ ...part, messageType: 'comment', body: c.replyBody ?? '' });
  // The rest are conversations' own one-key actions; a snooze for a while is a snooze until then.
  const snooze = action.snooze_for_seconds !== undefined ? new Date(c.now.getTime() + action.snooze_for_seconds * 1000).toISOString() : undefined;
  return conversationActionSpec(snooze ? { snooze } : action, c)!;
}

/** What an action would do, in words (the dry run). */
export function describeAction(a: RuleAction): string {
  if (a.assign !== undefined) return a.assign === null ? 'unassign' : `assign to member ${a.assign}`;
  if (a.team !== undefined) return a.team === null ? 'remove from its team' : `move to team ${a.team}`;
  if (a.tags_add) return `add tags ${a.tags_add.join(', ')}`;
  if (a.tags_remove) return `remove tags ${a.tags_remove.join(', ')}`;
  if (a.priority) return `set priority ${a.priority}`;
  if (a.set_attribute) return `set ${a.set_attribute.name} to ${JSON.stringify(a.set_attribute.value)}`;
  if (a.note !== undefined) return 'add a note';
  if (a.reply_with) return `reply with saved reply ${a.reply_with}`;
  if (a.close) return 'close';
  if (a.snooze_for_seconds !== undefined) return `snooze for ${a.snooze_for_seconds} s`;
  return `call ${a.call_url}`;
}
