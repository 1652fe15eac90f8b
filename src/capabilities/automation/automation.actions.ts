// What a rule may do, each as the command a teammate's own request would be
// (conversations', tags' and saved replies' own specs): the same rules, the
// same events, the same refusals. One action is an object with exactly one key.
import { Type, type Static } from '@sinclair/typebox';
import type { CommandSpec } from '../../commands/command.js';
import type { NewEvent } from '../../eventstore/envelope.js';
import { manageConversation, PRIORITIES, replyToConversation, setConversationAttributes, tagConversation, type Author } from '../conversations/index.js';

const Uuid = Type.String({ format: 'uuid' });
const TagIds = Type.Array(Uuid, { minItems: 1, maxItems: 10, uniqueItems: true });
export const NOTE_MAX_LENGTH = 20_000;
export const MAX_ACTIONS = 10;

export const RuleActionSchema = Type.Object(
  {
    assign: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'Assign to this member (null: unassign).' })),
    team: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        minLength: 1,
        maxLength: 200,
        description: "Move to this team (null: no team), through the team's routing.",
      }),
    ),
    tags_add: Type.Optional(TagIds),
    tags_remove: Type.Optional(TagIds),
    priority: Type.Optional(Type.Unsafe<(typeof PRIORITIES)[number]>({ type: 'string', enum: [...PRIORITIES] })),
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
    close: Type.Optional(Type.Literal(true)),
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

/** The one key an action has (its kind: `assign`, `call_url`, …). */
export const actionKind = (a: RuleAction): keyof RuleAction => Object.keys(a)[0] as keyof RuleAction;

/** Several specs decided as one command: each loads, each decides on what it loaded (tags are independent deltas). */
function allOf<E extends NewEvent>(name: string, specs: CommandSpec<any, E>[]): CommandSpec<unknown[], E> {
  return {
    name,
    load: (db, ctx) => Promise.all(specs.map((s) => s.load(db, ctx))),
    decide: (states, ctx) => specs.flatMap((s, i) => s.decide(states[i], ctx)),
  };
}

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
  const manage = (cmd: Parameters<typeof manageConversation>[1]) => manageConversation(c.conversationId, cmd);
  const base = { partId: c.partId, author: c.author, body: null };
  if (action.assign !== undefined) return manage({ ...base, messageType: 'assignment', assigneeId: action.assign, teamId: undefined });
  if (action.team !== undefined) return manage({ ...base, messageType: 'assignment', assigneeId: undefined, teamId: action.team });
  if (action.close) return manage({ ...base, messageType: 'close' });
  if (action.snooze_for_seconds !== undefined)
    return manage({ ...base, messageType: 'snoozed', snoozedUntil: new Date(c.now.getTime() + action.snooze_for_seconds * 1000).toISOString(), now: c.now });
  if (action.priority !== undefined) return manage({ ...base, messageType: 'priority', priority: action.priority });
  if (action.set_attribute !== undefined)
    return setConversationAttributes({ conversationId: c.conversationId, change: { [action.set_attribute.name]: action.set_attribute.value } });
  if (action.note !== undefined)
    return replyToConversation({
      conversationId: c.conversationId,
      partId: c.partId,
      messageType: 'note',
      body: action.note,
      attachments: [],
      author: c.author,
    });
  if (action.reply_with !== undefined)
    return replyToConversation({
      conversationId: c.conversationId,
      partId: c.partId,
      messageType: 'comment',
      body: c.replyBody ?? '',
      attachments: [],
      author: c.author,
    });
  const tags = action.tags_add ?? action.tags_remove ?? [];
  const add = action.tags_add !== undefined;
  return allOf(
    add ? 'TagConversation' : 'UntagConversation',
    tags.map((tagId) => tagConversation({ conversationId: c.conversationId, tagId, add })),
  );
}

/** Refusals that mean the conversation is already as the action asks: the action is skipped, not failed. */
export const ALREADY_SO = new Set(['conversation_already_closed', 'conversation_already_open']);

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
