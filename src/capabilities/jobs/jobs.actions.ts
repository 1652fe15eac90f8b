// The actions a bulk job applies, one conversation at a time, each as the
// command a teammate's own request would be (conversations' own specs): the
// same rules, the same events, the same refusals. A request names exactly one.
import { Type, type Static } from '@sinclair/typebox';
import type { CommandSpec } from '../../commands/command.js';
import type { NewEvent } from '../../eventstore/envelope.js';
import { manageConversation, PRIORITIES, tagConversation, type Author, type ManageCommand } from '../conversations/index.js';

const Uuid = Type.String({ format: 'uuid' });
const TagIds = Type.Array(Uuid, { minItems: 1, maxItems: 10, uniqueItems: true });

export const BulkActionSchema = Type.Object(
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
    close: Type.Optional(Type.Literal(true)),
    open: Type.Optional(Type.Literal(true)),
    snooze: Type.Optional(Type.String({ format: 'date-time', description: 'Snooze until then.' })),
    priority: Type.Optional(Type.Unsafe<(typeof PRIORITIES)[number]>({ type: 'string', enum: [...PRIORITIES] })),
    tags_add: Type.Optional(TagIds),
    tags_remove: Type.Optional(TagIds),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1, description: 'Exactly one action.' },
);
export type BulkAction = Static<typeof BulkActionSchema>;

/** Several specs decided as one command: each loads, each decides on what it loaded (tags are independent deltas). */
function allOf<E extends NewEvent>(name: string, specs: CommandSpec<any, E>[]): CommandSpec<unknown[], E> {
  return {
    name,
    load: (db, ctx) => Promise.all(specs.map((s) => s.load(db, ctx))),
    decide: (states, ctx) => specs.flatMap((s, i) => s.decide(states[i], ctx)),
  };
}

/** The command that applies `action` to one conversation. */
export function actionSpec(action: BulkAction, c: { conversationId: string; partId: string; author: Author; now: Date }): CommandSpec<any, NewEvent> {
  const manage = (cmd: ManageCommand & { assigneeId?: string | null; teamId?: string | null }) => manageConversation(c.conversationId, cmd);
  const base = { partId: c.partId, author: c.author, body: null };
  if (action.assign !== undefined) return manage({ ...base, messageType: 'assignment', assigneeId: action.assign, teamId: undefined });
  if (action.team !== undefined) return manage({ ...base, messageType: 'assignment', assigneeId: undefined, teamId: action.team });
  if (action.close) return manage({ ...base, messageType: 'close' });
  if (action.open) return manage({ ...base, messageType: 'open' });
  if (action.snooze !== undefined) return manage({ ...base, messageType: 'snoozed', snoozedUntil: action.snooze, now: c.now });
  if (action.priority !== undefined) return manage({ ...base, messageType: 'priority', priority: action.priority });
  const tags = action.tags_add ?? action.tags_remove ?? [];
  const add = action.tags_add !== undefined;
  return allOf(
    add ? 'TagConversation' : 'UntagConversation',
    tags.map((tagId) => tagConversation({ conversationId: c.conversationId, tagId, add })),
  );
}

/** Refusals that mean the conversation is already as the action asks: the item is skipped, not failed. */
export const ALREADY_SO = new Set(['conversation_already_closed', 'conversation_already_open']);
