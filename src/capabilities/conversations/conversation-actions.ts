// A change to one conversation named by one key (`{"close": true}`, `{"tags_add": [...]}`), as bulk jobs and
// automation rules name them: each is the command a teammate's own request would be (manage, tag), so the same
// rules, the same events and the same refusals apply. Jobs and rules add their own keys around these.
import { Type } from '@sinclair/typebox';
import type { CommandSpec } from '../../commands/command.js';
import type { NewEvent } from '../../eventstore/envelope.js';
import { manageConversation, tagConversation } from './conversations.commands.js';
import type { Author, Priority } from './conversations.decider.js';
import { PRIORITIES } from './conversations.events.js';

const Uuid = Type.String({ format: 'uuid' });
const TagIds = Type.Array(Uuid, { minItems: 1, maxItems: 10, uniqueItems: true });

/** The schema properties of the actions jobs and rules share (each optional: the caller's object takes exactly one key). */
export const conversationActionFields = {
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
  priority: Type.Optional(Type.Unsafe<Priority>({ type: 'string', enum: [...PRIORITIES] })),
  tags_add: Type.Optional(TagIds),
  tags_remove: Type.Optional(TagIds),
};

/** One action on a conversation: one of these keys (`snooze` an ISO instant, `open` for a job's reopening). */
export interface ConversationAction {
  assign?: string | null;
  team?: string | null;
  close?: true;
  open?: true;
  snooze?: string;
  priority?: Priority;
  tags_add?: string[];
  tags_remove?: string[];
}

/** Several specs decided as one command: each loads, each decides on what it loaded (tags are independent deltas). */
function allOf<E extends NewEvent>(name: string, specs: CommandSpec<any, E>[]): CommandSpec<unknown[], E> {
  return {
    name,
    load: (db, ctx) => Promise.all(specs.map((s) => s.load(db, ctx))),
    decide: (states, ctx) => specs.flatMap((s, i) => s.decide(states[i], ctx)),
  };
}

/** The command that applies `action` to one conversation; null when it names none of these keys. */
export function conversationActionSpec(
  action: ConversationAction,
  c: { conversationId: string; partId: string; author: Author; now: Date },
): CommandSpec<any, NewEvent> | null {
  const manage = (cmd: Parameters<typeof manageConversation>[1]) => manageConversation(c.conversationId, cmd);
  const base = { partId: c.partId, author: c.author, body: null };
  if (action.assign !== undefined) return manage({ ...base, messageType: 'assignment', assigneeId: action.assign, teamId: undefined });
  if (action.team !== undefined) return manage({ ...base, messageType: 'assignment', assigneeId: undefined, teamId: action.team });
  if (action.close) return manage({ ...base, messageType: 'close' });
  if (action.open) return manage({ ...base, messageType: 'open' });
  if (action.snooze !== undefined) return manage({ ...base, messageType: 'snoozed', snoozedUntil: action.snooze, now: c.now });
  if (action.priority !== undefined) return manage({ ...base, messageType: 'priority', priority: action.priority });
  const tags = action.tags_add ?? action.tags_remove;
  if (!tags) return null;
  const add = action.tags_add !== undefined;
  return allOf(
    add ? 'TagConversation' : 'UntagConversation',
    tags.map((tagId) => tagConversation({ conversationId: c.conversationId, tagId, add })),
  );
}

/** Refusals that mean the conversation is already as the action asks: the action is skipped, not failed. */
export const ALREADY_SO: ReadonlySet<string> = new Set(['conversation_already_closed', 'conversation_already_open']);
